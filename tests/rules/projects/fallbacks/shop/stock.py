import tenacity

from shop.erp import ErpClient
from shop.sessions import single_attempt_session

retry = tenacity.retry(stop=tenacity.stop_after_attempt(4), wait=tenacity.wait_random(0, 2), reraise=True)


@retry
def check_stock(sku):
    """Every client made here is given a session that does not retry: nothing multiplies."""
    return ErpClient(session=single_attempt_session()).stock(sku)


@retry
def check_stock_again(sku):
    return ErpClient(single_attempt_session()).stock(sku)
