# ``vendor`` has no __init__.py: the project reaches this module as ``tool.lib.vendor.api_client``
# and, from ``migrate`` (run from ``tool/``), as ``lib.vendor.api_client``; one finding, not two.
from lib.network import api_call


class VendorClient:
    def __init__(self, url):
        self.url = url

    def get(self, path):
        return api_call("GET", self.url, path).json()  # expect: RES101
