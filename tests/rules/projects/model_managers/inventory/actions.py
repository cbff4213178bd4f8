# select: RES301
from django.db import transaction

from inventory.models import Network, Rack


def assign_address(network_pk):
    # the row a manager gives back is an instance of its model, whose method asks the DNS service
    network = Network.objects.get(pk=network_pk)
    with transaction.atomic():
        return network.first_free_ip()  # expect: RES301 "`first_free_ip` -> `DnsService.records`"


def assign_locked_address(network_pk):
    with transaction.atomic():
        network = Network.objects.select_for_update().filter(pk=network_pk).first()
        return network.first_free_ip()  # expect: RES301 "`first_free_ip` -> `DnsService.records`"


def label_rack(rack_pk):
    # a model method that calls no other service
    rack = Rack.objects.get(pk=rack_pk)
    with transaction.atomic():
        return rack.label()


def free_address(network_pk):
    # asked before the transaction opens
    address = Network.objects.get(pk=network_pk).first_free_ip()
    with transaction.atomic():
        Network.objects.filter(pk=network_pk).update(last_ip=address)
    return address


def assign_every_address(site_pk):
    # each row of a queryset the loop walks is an instance of its model
    with transaction.atomic():
        for network in Network.objects.filter(site=site_pk):
            network.first_free_ip()  # expect: RES301 "`first_free_ip` -> `DnsService.records`"


def label_every_rack():
    with transaction.atomic():
        for rack in Rack.objects.all():
            rack.label()
