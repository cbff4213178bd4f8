import requests
from requests.exceptions import HTTPError

from api.reinitialize import reinitialize_on_error

TIMEOUT = (3.05, 10)


class ProviderError(Exception):
    pass


class ServiceUnavailable(ProviderError):
    pass


class TooManyRequests(ProviderError):
    pass


class Provider:
    login_page = "https://subs.example/login"

    def initialize(self):
        self.session = requests.Session()

    def login(self):
        response = self.session.post(self.login_page, data={"user": "u"}, timeout=TIMEOUT)
        response.raise_for_status()

    @reinitialize_on_error
    def query(self, url):
        try:
            self.login()  # every failure leaves as the provider's own error, which the layer does not retry
        except HTTPError as error:
            raise TooManyRequests(str(error))
        except Exception as error:
            raise ServiceUnavailable(repr(error))
        return self.session.get(url, timeout=TIMEOUT).text

    @reinitialize_on_error
    def query_raw(self, url):
        self.login()  # expect: RES201
        return self.session.get(url, timeout=TIMEOUT).text
