# select: RES201
# A retrying transport behind wrappers that pass their callers' keyword arguments on.
import httpx

CLIENT = httpx.Client(timeout=httpx.Timeout(5, connect=1))


def send(method, url, **kwargs):
    for attempt in range(3):
        try:
            return CLIENT.request(method, url, **kwargs)
        except httpx.TransportError:
            if attempt == 2:
                raise


def post(url, data=None, **kwargs):
    return send("post", url, data=data, **kwargs)
