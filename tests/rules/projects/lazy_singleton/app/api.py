import tenacity

from app import registry
from app.clients import get_session


def fetch(url):
    return get_session().get(url)  # expect: RES101


def ping(url):
    return registry.client().get(url)  # expect: RES101


@tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 2), reraise=True)
def sync(url):
    return get_session().get(url, timeout=5)  # expect: RES204 "tenacity 3 attempts (app/api.py:15) x urllib3 Retry total=3 (app/clients.py:12) = up to 12 calls"
