# The callers choose the branch of the retried wrapper: only the one that passes 'POST' sends
# one (tap-salesforce's Salesforce._make_request); the refresh-token grant it also POSTs only
# mints a token (Salesforce.login).
import backoff
import requests

from app.bulk import Bulk
from app.rest import Rest

TIMEOUT = (3, 10)


class Client:
    def __init__(self):
        self.session = requests.Session()

    @backoff.on_exception(backoff.expo,
                          (requests.exceptions.ConnectionError, requests.exceptions.Timeout),
                          max_tries=6)
    def _make_request(self, http_method, url, headers=None, body=None):
        if http_method == "GET":
            resp = self.session.get(url, headers=headers, timeout=TIMEOUT)
        elif http_method == "POST":
            resp = self.session.post(url, headers=headers, data=body, timeout=TIMEOUT)
        else:
            raise ValueError("Unsupported HTTP method")
        resp.raise_for_status()
        return resp

    def describe(self, url):
        return self._make_request('GET', url, headers={"Authorization": "x"}).json()

    def create_job(self, url):
        return self._make_request('POST', url, headers={"Authorization": "x"}, body="{}").json()  # expect: RES201 "`_make_request` sends a POST (`requests.Session.post`)"

    def login(self):
        login_url = 'https://login.salesforce.com/services/oauth2/token'
        login_body = {'grant_type': 'refresh_token', 'client_id': self.client_id,
                      'client_secret': self.client_secret, 'refresh_token': self.refresh_token}
        resp = self._make_request("POST", login_url, body=login_body,
                                  headers={"Content-Type": "application/x-www-form-urlencoded"})
        return resp.json()['access_token']

    def query(self, url, bulk):
        if bulk:
            return Bulk(self).get_batch(url)
        return Rest(self).get_page(url)
