import tenacity

from shop.gateway import Gateway


def build_gateway(session=None):
    gateway = Gateway(session)
    return gateway


class Checkout:
    def __init__(self, gateway=None):
        self.gateway = gateway if gateway is not None else build_gateway()

    @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1), reraise=True)
    def pay(self, amount):
        return self.gateway.charge(amount)  # expect: RES201
