# select: RES1, RES2, RES3
"""Values that lead back to themselves: none of them may hang or crash the project pass."""
import requests


def itself():
    return itself


def wrapper(function):
    def inner(*args):
        return wrapper(function)(*args)

    return inner


HEADERS = {"Accept": "application/json"}


def merged(extra):
    headers = dict(HEADERS)
    headers.update(headers)
    headers.update(extra)
    return headers


class Node:
    def __init__(self, parent=None):
        self.parent = parent or self
        self.session = parent.session if parent is not None else requests.Session()

    def child(self):
        return Node(self)

    def fetch(self, url):
        return self.parent.session.get(url, timeout=5)  # expect: RES103
