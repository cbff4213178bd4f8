import requests


def ping(url):
    return requests.get(url, timeout=(3.05, 10))
