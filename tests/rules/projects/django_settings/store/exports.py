from django.conf import settings

from .sessions import catalog_session


def export(url, rows):
    # the session's own timeout is replaced by the one given here
    return catalog_session().post(url, json=rows, timeout=settings.EXPORT_TIMEOUT)  # expect: RES105 "EXPORT_TIMEOUT = 90"


def catalog(url):
    # the session fills in its timeout: no RES101
    # select: RES101
    return catalog_session().get(url)
