import requests

from loadlib.users import HttpUser

from .testcases import WebserverTestCase


class TestAbsolute(WebserverTestCase):
    def test_client_get_absolute_url(self):
        class MyUser(HttpUser):
            host = "http://127.0.0.1:%i" % self.port

        u = MyUser(None)
        self.assertEqual("GET", u.client.get("http://127.0.0.1:%i/request_method" % self.port).text)

    def test_plain_session_absolute_url(self):
        s = requests.Session()
        self.assertEqual("GET", s.get("http://127.0.0.1:%i/request_method" % self.port).text)

    def test_remote_url(self):
        class MyUser(HttpUser):
            host = "https://www.example.com"

        u = MyUser(None)
        self.assertEqual("GET", u.client.get("https://www.example.com/request_method").text)  # expect: RES101
