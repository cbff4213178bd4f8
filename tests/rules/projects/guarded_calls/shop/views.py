# select: RES301
from django.db import transaction

from shop.remote import establish_basket, mark_status, notify, refresh, sync_profile
from shop.status import Status


def establish_basket_for_request(user):
    return establish_basket(user)  # never passes no_delay


def add_to_cart(user):
    with transaction.atomic():
        return establish_basket_for_request(user)


def add_to_cart_now(user):
    with transaction.atomic():
        return establish_basket(user, no_delay=True)  # expect: RES301 "establish_basket` -> `create_user"


def add_to_cart_as(user, no_delay):
    with transaction.atomic():
        return establish_basket(user, no_delay=no_delay)  # expect: RES301


def preview_profile(user):
    with transaction.atomic():
        sync_profile(user, dry_run=True)


def save_profile(user):
    with transaction.atomic():
        sync_profile(user)  # expect: RES301


@transaction.atomic
def start(fq):
    mark_status(fq, Status.IN_PROGRESS)


@transaction.atomic
def finish(fq):
    mark_status(fq, Status.SUCCESSFUL)  # expect: RES301 "mark_status` -> `send_webhooks` -> `requests.post"


@transaction.atomic
def finish_as(fq, status):
    mark_status(fq, status)  # expect: RES301


@transaction.atomic
def ping():
    notify("sms")
    notify("email")  # expect: RES301


def save_quietly(user):
    with transaction.atomic():
        refresh(user, False)  # carried two calls down: push returns before it posts


def save_and_push(user):
    with transaction.atomic():
        refresh(user, notify_remote=True)  # expect: RES301 "refresh` -> `push` -> `requests.post"
