# select: RES101
# A test server whose URL is a property of the test's own class.
from threading import Thread

import requests
from werkzeug.serving import make_server


class MockServerThread(Thread):
    def __init__(self, app):
        Thread.__init__(self)
        self.srv = make_server("127.0.0.1", 8765, app)

    @property
    def url(self):
        return "http://localhost:8765"

    @property
    def remote(self):
        return "https://api.example.org"


def test_user():
    server = MockServerThread(app=None)
    server.start()
    assert requests.get(f"{server.url}/api/user").ok
    assert requests.get(f"{server.remote}/api/user").ok  # expect: RES101
