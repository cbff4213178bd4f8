from app import clients
from app.clients import bounded, defaulted, get_with_timeout, get_without_timeout, mounted, plain, session_post


def a(url):
    return bounded.get(url)


def b(url):
    return mounted.get(url)


def c(url):
    return plain.get(url)  # expect: RES101


def d(url):
    return get_with_timeout(url)


def e(url):
    return get_without_timeout(url)  # expect: RES101


def f(url, data):
    return session_post(url, json=data)


def g(url):
    return clients.plain.head(url)  # expect: RES101


def h(session, url):
    return session.get(url)


def call_h(url):
    return h(defaulted, url)
