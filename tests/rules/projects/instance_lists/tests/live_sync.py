# select: RES102
# PyMISP's sync tests: every instance is a server of this machine that the test run starts,
# named in a module list and handed to the connectors as `params["url"]`
import unittest

from pkg import PyMISP

misp_instances = [
    {"url": "https://localhost:8643", "key": "xxx"},
    {"url": "https://localhost:8644", "key": "xxx"},
]


class MISPInstance:
    def __init__(self, params):
        self.site_admin_connector = PyMISP(params["url"], params["key"], ssl=False)

    def create_sync_user(self, authkey):
        return PyMISP(self.site_admin_connector.root_url, authkey, ssl=False)


class TestSync(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.instances = [MISPInstance(params) for params in misp_instances]
