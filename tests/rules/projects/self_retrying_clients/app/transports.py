import httpx


class Transport:
    """A client given by the caller, else one whose transport retries failed connects."""

    def __init__(self, client=None):
        self.client = client if client is not None else httpx.Client(
            timeout=5, transport=httpx.HTTPTransport(retries=2)
        )

    def send(self, method, url, **kwargs):
        return self.client.request(method, url, **kwargs)


class MadeWhenMissing:
    def __init__(self, client=None):
        if client is None:
            client = httpx.Client(timeout=5, transport=httpx.HTTPTransport(retries=2))
        self.client = client

    def send(self, method, url, **kwargs):
        return self.client.request(method, url, **kwargs)


class PlainTransport:
    def __init__(self, client=None):
        self.client = client if client is not None else httpx.Client(timeout=5)

    def send(self, method, url, **kwargs):
        return self.client.request(method, url, **kwargs)


_transport = None


def transport():
    global _transport
    if _transport is None:
        _transport = Transport()
    return _transport
