# select: RES201, RES203
"""The same retry, reduced to one function: called again once, behind a flag parameter."""
import requests

HTTP_TIMEOUT = (3.05, 10)


def send(url, data, retried=False):
    response = requests.post(url, data=data, timeout=HTTP_TIMEOUT)  # expect: RES201
    if not retried and response.status_code in [421, 450, 500]:
        return send(url, data, retried=True)
    return response


def send_on_error(url, data, retried=False):
    try:
        return requests.post(url, data=data, timeout=HTTP_TIMEOUT)  # expect: RES201
    except requests.RequestException:
        if not retried:
            return send_on_error(url, data, retried=True)
        raise
