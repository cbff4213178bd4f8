import requests


def pinned_session():
    return requests.session()
