import requests

from app.registry import set_client


def boot():
    set_client(requests.Session())
