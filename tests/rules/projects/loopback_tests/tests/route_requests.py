# select: RES101
# URLs of the application's own routes, made here or by helpers of another module.
import requests
from flask import url_for

from tests.utils.api import api_url_for, partner_url


def test_add_tag(api_server):
    return requests.put(api_url_for(api_server, "tagsresource"), json={"name": "a"})


def test_get_tags(api_server):
    url = api_url_for(api_server, "tagsresource")
    return requests.get(url)


def test_partner():
    return requests.get(partner_url("health"))  # expect: RES101


def test_route_here(app):
    with app.test_request_context():
        return requests.get(url_for("health", _external=True))
