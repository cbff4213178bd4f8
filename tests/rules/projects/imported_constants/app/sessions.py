import requests


def api_session():
    return requests.Session()


def send(method, url, **kwargs):
    return requests.request(method, url, **kwargs)
