# select: RES103
import requests

from shop.backend import request_api


class MockResponse:
    def json(self):
        return {"result": True}


def test_ping(monkeypatch):
    monkeypatch.setattr(requests, "get", lambda url, **kwargs: MockResponse())
    # the default method is GET, which the test replaced: requests.post is never reached
    assert request_api("http://backend/api/1", "ping", timeout=5) == {"result": True}


def test_post(monkeypatch):
    monkeypatch.setattr(requests, "get", lambda url, **kwargs: MockResponse())
    assert request_api("http://backend/api/1", "ping", timeout=5, method="POST")  # expect: RES103
