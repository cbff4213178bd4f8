# select: RES101, RES204, RES301
from celery import shared_task
from django.db import transaction

from supplier import get_client


@shared_task(autoretry_for=(OSError,), max_retries=4, retry_backoff=True)
def sync_stock(sku):
    return get_client().stock(sku)  # expect: RES204 "urllib3 Retry total=3"


def reorder(product):
    with transaction.atomic():
        product.save()
        get_client().order({"sku": product.sku})  # expect: RES301 "runs inside `transaction.atomic()`"
