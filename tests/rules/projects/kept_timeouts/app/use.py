# select: RES102, RES103, RES105
from app.client import Client, Configured, Reassigned


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


def filled_in(token):
    from app.filled import ApiClient, Servers

    client = ApiClient(token, endpoint="https://api.example/v1")  # expect: RES102 "the default `timeout=None` of `ApiClient`"
    return Servers(client).get_all()


def filled_in_bounded(token, settings):
    from app.filled import ApiClient, Servers

    return Servers(ApiClient(token, endpoint="https://api.example/v1", timeout=settings.TIMEOUT)).get_all()


def configured():
    return Configured("token").get("https://a.example/x")  # expect: RES105 "the default `timeout=SLOW_TIMEOUT` of `Configured`"
