# select: RES101
from urllib.parse import urljoin

import requests


def api_call(method, base_url, path, **kwargs):
    session = requests.Session()
    response = session.request(method, urljoin(base_url, path), **kwargs)
    response.raise_for_status()
    return response
