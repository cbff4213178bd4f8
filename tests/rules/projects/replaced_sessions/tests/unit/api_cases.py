# select: RES102
# the request method of the object's inner client replaced, in a fixture or in every test that
# requests the fixture
from unittest import mock

import pytest

from hc.api import Client


@pytest.fixture()
def request_mock():
    return mock.MagicMock()


@pytest.fixture()
def client(request_mock):
    c = Client(token="TOKEN")
    c._client.request = request_mock
    return c


class TestClient:
    @pytest.fixture()
    def client(self):
        return Client(token="TOKEN")

    def test_request(self, client):
        client._client.request = mock.MagicMock()
        client.request(method="GET", url="/path")


class TestLive:
    @pytest.fixture()
    def client(self):
        return Client(token="TOKEN")  # expect: RES102

    def test_request(self, client):
        client.request(method="GET", url="/path")
