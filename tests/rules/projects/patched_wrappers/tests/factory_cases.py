# select: RES1
# the factory that makes the wrapper's session replaced by the test (crewAI's safe requests)
from shop import safe_requests


class _TrackingSession:
    def get(self, url, **kwargs):
        return None

    def close(self):
        pass


def test_raw_get_closes_session(monkeypatch):
    session = _TrackingSession()
    monkeypatch.setattr(safe_requests, "create_safe_session", lambda: session)
    safe_requests.raw_get("http://example.com/file")


def test_raw_get_live():
    safe_requests.raw_get("http://example.com/file")  # expect: RES101
