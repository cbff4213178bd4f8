# The refresh-token grant reaches the POST through the wrapper's ``body``: it only mints a
# token, so no RES201 (tap-salesforce's Salesforce.login).
import backoff
import requests

TIMEOUT = (3, 10)


class Salesforce:
    def __init__(self, client_id, client_secret, refresh_token):
        self.session = requests.Session()
        self.client_id = client_id
        self.client_secret = client_secret
        self.refresh_token = refresh_token

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

    def login(self):
        login_url = 'https://login.salesforce.com/services/oauth2/token'
        login_body = {'grant_type': 'refresh_token', 'client_id': self.client_id,
                      'client_secret': self.client_secret, 'refresh_token': self.refresh_token}
        resp = self._make_request("POST", login_url, body=login_body,
                                  headers={"Content-Type": "application/x-www-form-urlencoded"})
        return resp.json()['access_token']
