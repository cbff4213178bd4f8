# select: RES101
from app.sessions import BoundedSession, PacedSession, StrictSession


def paced(url):
    return PacedSession().get(url)  # expect: RES101 "the client comes from `PacedSession`"


def bounded(url):
    return BoundedSession().get(url)


def strict(url):
    return StrictSession().get(url)
