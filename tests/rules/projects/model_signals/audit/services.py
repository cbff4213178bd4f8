# select: RES301
from django.db import transaction

from audit.models import Address, Engagement, Note, Product, Subnet


def open_engagement(product_pk, name):
    with transaction.atomic():
        Product.objects.select_for_update().get(pk=product_pk)
        # post_save runs `engagement_saved` here, inside the transaction
        return Engagement.objects.create(name=name)  # expect: RES301 "`create` -> `engagement_saved` -> `notify`"


def rename(engagement_pk, name):
    with transaction.atomic():
        engagement = Engagement.objects.get(pk=engagement_pk)
        engagement.name = name
        engagement.save()  # expect: RES301 "`save` -> `engagement_saved`"


def close(engagement_pk):
    with transaction.atomic():
        Engagement.objects.get(pk=engagement_pk).delete()  # expect: RES301 "`engagement_deleted` -> `notify`"


def add_note(text):
    # the note's receiver only queues a task
    with transaction.atomic():
        return Note.objects.create(text=text)


def add_product(name):
    # no receiver listens to products
    with transaction.atomic():
        return Product.objects.create(name=name)


def register_host(host):
    # the receiver connected by keyword to the sender named by its label
    with transaction.atomic():
        return Address.objects.create(host=host)  # expect: RES301 "`create` -> `address_saved`"


def assign(subnet_pk, host):
    subnet = Subnet.objects.get(pk=subnet_pk)
    with transaction.atomic():
        return subnet.assign_host(host)  # expect: RES301 "`assign_host` -> `create` -> `address_saved`"


def split(subnet_pk):
    with transaction.atomic():
        return Subnet.objects.get(pk=subnet_pk).split()  # expect: RES301 "`split` -> `create` -> `subnet_saved`"


def lock_and_register(host):
    # a queryset step before the create: the same model's rows
    with transaction.atomic():
        return Address.objects.select_for_update().get_or_create(host=host)  # expect: RES301 "`get_or_create` -> `address_saved`"


def register_elsewhere(host):
    with transaction.atomic():
        return Address.objects.using("replica").create(host=host)  # expect: RES301 "`create` -> `address_saved`"


def count_hosts(host):
    # a queryset that creates nothing
    with transaction.atomic():
        return Address.objects.filter(host=host).count()
