# A URL template of this machine kept in a module name (itself made with ``.format``), filled
# at each request with ``.format`` (pyload's API tests); one of another host is still judged.
from urllib.request import urlopen

API_VERSION = 1
url = "http://localhost:8000/api/v{}/{{}}".format(API_VERSION)
remote = "https://api.example/v{}/{{}}".format(API_VERSION)


class TestJson:
    def setUp(self):
        self.key = urlopen(url.format("login"), data=b"u=1").read()

    def test_access(self):
        urlopen(url.format("getServerVersion"))
        urlopen(remote.format("getServerVersion"))  # expect: RES101
