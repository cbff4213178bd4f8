# select: RES102
# a live test whose server is another machine: its URLs are not all this machine's
import unittest

from pkg import PyMISP

urls = ["https://localhost:8643", "https://10.197.206.84"]


class TestRemote(unittest.TestCase):
    def test_version(self):
        for url in urls:
            PyMISP(url, "key", ssl=False)  # expect: RES102
