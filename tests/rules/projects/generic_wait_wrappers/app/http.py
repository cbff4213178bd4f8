import requests


def fetch(url, timeout=None):
    return requests.get(url, timeout=timeout)
