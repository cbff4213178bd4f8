# select: RES101
# URLs of the application's own routes, made here or by helpers of another module.
from concurrent.futures import ThreadPoolExecutor

import requests
from django.test import LiveServerTestCase
from flask import url_for

from tests.utils.api import api_url_for, partner_url


def test_add_tag(api_server):
    return requests.put(api_url_for(api_server, "tagsresource"), json={"name": "a"})


def test_get_tags(api_server):
    url = api_url_for(api_server, "tagsresource")
    return requests.get(url)


def test_partner():
    return requests.get(partner_url("health"))  # expect: RES101


def test_named_route(api_server):
    # the route named with ``:=`` as it is passed
    response = requests.get(settings_url := api_url_for(api_server, "settingsresource"))
    assert settings_url
    return response


def test_concurrent_logins(app):
    # the request a thread pool makes of the session's ``post``
    second = requests.Session()
    with app.test_request_context():
        auth_url = url_for("userauthenticateresource", name="user", _external=True)
    with ThreadPoolExecutor() as executor:
        return executor.submit(second.post, auth_url, json={"password": "123"}).result()


def test_concurrent_partner():
    second = requests.Session()
    with ThreadPoolExecutor() as executor:
        return executor.submit(second.post, partner_url("login"), json={}).result()  # expect: RES101


def test_route_here(app):
    with app.test_request_context():
        return requests.get(url_for("health", _external=True))


class LiveServerTests(LiveServerTestCase):
    # Django starts the server on this machine for the test case
    def test_logo(self):
        return requests.get(self.live_server_url + "/media/logo.svg")

    def test_remote(self):
        return requests.get(self.partner_url + "/media/logo.svg")  # expect: RES101
