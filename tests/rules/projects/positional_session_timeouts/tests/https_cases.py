# select: RES101
# proxmoxer's tests: the session subclass fills in the backend's timeout and hands it to
# requests by position
from pkg.https import Backend


def test_version():
    backend = Backend("pve.example")
    session = backend.get_session()
    session.request("GET", backend.base_url + "/version")


def test_plain():
    import requests

    requests.Session().request("GET", "https://pve.example/version")  # expect: RES101
