"""Every request carries a session: ``request.http`` (Pyramid's ``add_request_method``)."""
import threading

import requests
from requests.adapters import HTTPAdapter


class ThreadLocalSessionFactory:
    def __init__(self):
        self._local = threading.local()

    def __call__(self, request):
        try:
            return self._local.session
        except AttributeError:
            session = requests.Session()
            session.mount("https://", HTTPAdapter(max_retries=1))
            self._local.session = session
            return session


def _user(request):
    return request.db.get_user()


def _ip_address(request):
    return request.remote_addr


def includeme(config):
    config.add_request_method(ThreadLocalSessionFactory(), name="http", reify=True)
    config.add_request_method(_user, name="user", reify=True)
    # a method the code calls (``request.ip_address()``), not an attribute
    config.add_request_method(_ip_address, name="ip_address")
