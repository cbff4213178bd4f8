# select: RES102, RES103
from app.client import Client, Reassigned


def default():
    return Client("https://a.example").get("/x")  # expect: RES102 "the default `timeout=None` of `Client`"


def bounded(settings):
    return Client("https://a.example", timeout=settings.TIMEOUT).get("/x")


def positional(settings):
    # the timeout given by position
    return Client("https://a.example", settings.TIMEOUT).get("/x")


def literal():
    return Client("https://a.example", timeout=10).get("/x")  # expect: RES103 "passed through `Client`"


def reassigned():
    return Reassigned().get("https://a.example/x")
