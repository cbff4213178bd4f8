from contextlib import contextmanager
from unittest.mock import patch

from grafana.jobs import GrafanaAPIClient, sync_users


@contextmanager
def patched_client():
    with patch("grafana.jobs.GrafanaAPIClient") as mocked:
        yield mocked.return_value


def test_sync_users_answered_by_the_double():
    with patched_client() as client:
        assert sync_users(client) is not None


def test_sync_users_against_a_live_server():
    assert sync_users(GrafanaAPIClient("http://127.0.0.1:3000", "token"))  # expect: RES101 "`requests.get` is called through `sync_users`"
