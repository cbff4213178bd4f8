# select: RES102, RES104, RES105
import requests
from django.conf import settings


def catalog(url):
    return requests.get(url, timeout=settings.CATALOG_TIMEOUT)  # expect: RES104 "CATALOG_TIMEOUT = 10"


def upload(url, rows):
    return requests.post(url, json=rows, timeout=settings.REPORTS_TIMEOUT)  # expect: RES105 "120"


def export(url):
    return requests.get(url, timeout=settings.EXPORT_TIMEOUT)  # expect: RES105 "EXPORT_TIMEOUT = 90"


def stock(url):
    return requests.get(url, timeout=settings.SUPPLIER_TIMEOUT)
