from loadlib.clients import HttpSession
from loadlib.users import HttpUser

from .testcases import WebserverTestCase


class TestHttpSession(WebserverTestCase):
    def get_client(self, base_url=None):
        if base_url is None:
            base_url = "http://127.0.0.1:%i" % self.port
        return HttpSession(base_url=base_url)

    def test_get(self):
        s = self.get_client()
        r = s.get("/ultra_fast")
        self.assertEqual(200, r.status_code)

    def test_user_get(self):
        class MyUser(HttpUser):
            host = "http://127.0.0.1:%i" % self.port

        u = MyUser(None)
        self.assertEqual("GET", u.client.get("/request_method").text)

    def test_path_in_a_local(self):
        s = self.get_client()
        url = "/redirect?url=/redirect&delay=0.5"
        s.get(url)
