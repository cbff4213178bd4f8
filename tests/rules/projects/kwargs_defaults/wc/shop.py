from django.conf import settings

from wc.api import API, OpenAPI

API(settings.SHOP_URL).get("/orders")  # expect: RES105 "may wait 500 s, above max-timeout (30 s) (the default `timeout=500` of `API`"
API(settings.SHOP_URL, timeout=settings.SHOP_TIMEOUT).get("/orders")
OpenAPI(settings.SHOP_URL).get("/orders")  # expect: RES102 "(the default `timeout=None` of `OpenAPI`"
OpenAPI(settings.SHOP_URL, timeout=settings.SHOP_TIMEOUT).get("/orders")
