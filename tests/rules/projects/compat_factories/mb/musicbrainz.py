# select: RES101
# python-musicbrainzngs: the opener comes from urllib's factory, imported through a compat module
from mb import compat


def _safe_read(opener, req, body=None):
    if body:
        return opener.open(req, body).read()  # expect: RES101 "urllib.request.OpenerDirector.open"
    return opener.open(req).read()  # expect: RES101 "urllib.request.OpenerDirector.open"


def _mb_request(path, body=None):
    opener = compat.build_opener(compat.HTTPHandler(debuglevel=0))
    return _safe_read(opener, compat.Request("https://musicbrainz.org/ws/2/" + path), body)


def status():
    opener = compat.build_opener()
    return opener.open("https://musicbrainz.org/", timeout=5).read()
