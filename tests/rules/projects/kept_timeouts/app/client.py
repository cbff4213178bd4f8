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


class OAuth:
    # spotipy's SpotifyOAuth: the timeout is kept for the token request alone
    AUTHORIZE_URL = "https://accounts.example/authorize"

    def __init__(self, client_id, requests_timeout=None):
        self.client_id = client_id
        self.requests_timeout = requests_timeout
        self.session = requests.Session()
        self.cache_handler = None

    def authorize_url(self, state=None):
        return self.AUTHORIZE_URL + "?client_id=" + self.client_id + "&state=" + str(state)

    def login_url(self):
        return self.authorize_url()

    def access_token(self, code):
        return self.session.post(self.AUTHORIZE_URL, data={"code": code}, timeout=self.requests_timeout).json()

    def cached_token(self):
        return self.access_token("cached")


class Checked:
    # PyMISP: the constructor itself asks the server for its version
    def __init__(self, url, timeout=None):
        self.url = url
        self.timeout = timeout
        self.session = requests.Session()
        self.version = self.server_version()

    def server_version(self):
        return self.session.get(self.url + "/version", timeout=self.timeout).json()

    def describe(self):
        return "client of " + self.url


def check_auth(method):
    # PyDrive2's CheckAuth: the wrapper authorizes (and posts) before the method runs
    def wrapper(self, *args, **kwargs):
        self.authorize()
        return method(self, *args, **kwargs)
    return wrapper


class Auth:
    def __init__(self, url, http_timeout=None):
        self.url = url
        self.http_timeout = http_timeout
        self.session = requests.Session()

    def authorize(self):
        return self.session.post(self.url + "/token", timeout=self.http_timeout)

    @check_auth
    def service_auth(self):
        return "authorized"
