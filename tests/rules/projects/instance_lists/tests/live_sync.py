# select: RES102
# PyMISP's sync tests: every instance is a server of this machine that the test run starts,
# named in a module list and handed to the connectors as `params["url"]`
import unittest

from pkg import PyMISP

misp_instances = [
    {"url": "https://localhost:8643", "key": "xxx", "external_baseurl": "https://192.168.1.1"},
    {"url": "https://localhost:8644", "key": "xxx", "external_baseurl": "https://192.168.1.2"},
]


class MISPInstance:
    def __init__(self, params):
        self.site_admin_connector = PyMISP(params["url"], params["key"], ssl=False)

    def create_sync_user(self, authkey):
        # the URL kept on another connector: not read, and the file names other hosts too
        return PyMISP(self.site_admin_connector.root_url, authkey, ssl=False)  # expect: RES102


class TestSync(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.instances = [MISPInstance(params) for params in misp_instances]


def only_here():
    return PyMISP(misp_instances[0]["url"], "key", ssl=False)
