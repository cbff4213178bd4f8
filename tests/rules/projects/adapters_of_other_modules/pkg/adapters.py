# select: RES101
# Transport adapters of their own module: the sessions of another module mount them.
import requests
from toolbelt_like import SauceAdapter


class PlainAdapter(requests.adapters.HTTPAdapter):
    pass


class TimedAdapter(requests.adapters.HTTPAdapter):
    def send(self, request, **kwargs):
        kwargs.setdefault("timeout", 10)
        return super().send(request, **kwargs)


class SaucedAdapter(SauceAdapter):
    pass
