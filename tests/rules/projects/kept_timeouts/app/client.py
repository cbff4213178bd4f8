import requests

from .config import SLOW_TIMEOUT


class Client:
    def __init__(self, base_url, timeout=None):
        self.base_url = base_url
        self.timeout = timeout
        self.session = requests.Session()

    def get(self, path):
        return self.session.get(self.base_url + path, timeout=self.timeout)


class Reassigned:
    # set again by a method: what a call sends is no longer what the constructor was given
    def __init__(self, timeout=None):
        self.timeout = timeout
        self.session = requests.Session()

    def configure(self, timeout):
        self.timeout = timeout

    def get(self, url):
        return self.session.get(url, timeout=self.timeout)


class Configured:
    # its default is a constant of another module (webexteamssdk's config)
    def __init__(self, token, timeout=SLOW_TIMEOUT):
        self.timeout = timeout
        self.session = requests.Session()

    def get(self, url):
        return self.session.get(url, timeout=self.timeout)
