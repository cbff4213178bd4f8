# select: RES102
# A project wrapper whose timeout defaults to None, given a URL of a fixture that serves
# this machine (pytest-httpbin's), or of another host.
from tests.utils.caching_session import CachingSession


def test_cached(httpbin):
    session = CachingSession()
    url = httpbin.url + "/get"
    assert session.request("get", url).ok


def test_local_base():
    session = CachingSession()
    assert session.request("get", "http://127.0.0.1:5000/get").ok


def test_remote():
    session = CachingSession()
    assert session.request("get", "https://api.example.org/get").ok  # expect: RES102
