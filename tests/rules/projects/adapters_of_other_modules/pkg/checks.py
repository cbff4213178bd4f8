# select: RES101
from .sessions import plain_session, sauced_session, timed_session


def check_plain(url):
    return plain_session().get(url)  # expect: RES101 "the client comes from `plain_session`"


def check_timed(url):
    return timed_session().get(url)


def check_sauced(url):
    return sauced_session().get(url)  # an adapter of a library the pass cannot read may set one
