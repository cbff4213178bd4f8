import requests


def fetch_json(url, **kwargs):
    return requests.get(url, **kwargs).json()
