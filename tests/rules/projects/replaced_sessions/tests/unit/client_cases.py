# select: RES102, RES201
# hcloud-python's unit tests: the fixture (or the test) replaces the client's session with a
# mock, so neither the kept `timeout=None` nor the retried POST reaches a server
from unittest import mock

import pytest

from hc.client import ClientBase


class TestBaseClient:
    @pytest.fixture()
    def client(self):
        client = ClientBase(token="TOKEN", endpoint="https://api.example.com/v1")
        client._session = mock.MagicMock()
        return client

    def test_post(self, client: ClientBase):
        client._session.request.return_value = mock.MagicMock(ok=True)
        client.request(method="POST", url="/path")

    def test_inline(self):
        client = ClientBase(token="TOKEN", endpoint="https://api.example.com/v1")
        client._session = mock.MagicMock()
        client.request(method="POST", url="/path")

    def test_logger_replaced(self):
        # a mock of something else leaves the session real
        client = ClientBase(token="TOKEN", endpoint="https://api.example.com/v1")  # expect: RES102
        client._logger = mock.MagicMock()
        client.request(method="POST", url="/path")  # expect: RES201
