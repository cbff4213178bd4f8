import tenacity

from shop.erp import LegacyErpClient


@tenacity.retry(stop=tenacity.stop_after_attempt(4), wait=tenacity.wait_random(0, 2), reraise=True)
def reorder_level(sku):
    return LegacyErpClient().stock(sku)  # expect: RES204 "x urllib3 Retry total=3"
