# select: RES101
import requests

from .adapters import PlainAdapter, SaucedAdapter, TimedAdapter


class PlainSession(requests.Session):
    def __init__(self):
        super().__init__()
        self.mount("https://", PlainAdapter())


class TimedSession(requests.Session):
    def __init__(self):
        super().__init__()
        self.mount("https://", TimedAdapter())


class SaucedSession(requests.Session):
    def __init__(self):
        super().__init__()
        self.mount("https://", SaucedAdapter())


def plain_session():
    return PlainSession()


def timed_session():
    return TimedSession()


def sauced_session():
    return SaucedSession()
