from unittest import mock

import requests

from bridge import partner


@mock.patch("bridge.partner.requests.get")
def test_orders_are_read(mock_get):
    assert requests.get("https://partner.example/health", timeout=3)
    partner.partner_orders("token", "2024-01-01")


def test_ack(mocker):
    mocker.patch("requests_oauthlib.OAuth2Session.post")
    assert requests.get("https://partner.example/health")  # expect: RES101
