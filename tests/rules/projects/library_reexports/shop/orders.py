# select: RES101, RES102, RES103, RES301
import sqlite3

from shop import compat
from shop.compat import SMTP, Session, http, urlopen
from shop.vendor import http as vendored_http
from shop.settings import HTTP_TIMEOUT


def feed(url):
    return urlopen(url).read()  # expect: RES101 "imported through `shop.compat`"


def stock(url):
    return compat.http.get(url)  # expect: RES101 "`advocate.get` is called without a timeout"


def cancel(url):
    return http.post(url, timeout=None)  # expect: RES102


def refund(url):
    return vendored_http.post(url, timeout=HTTP_TIMEOUT)


def receipt(host, message):
    SMTP(host).sendmail("shop@example.com", ["buyer@example.com"], message)  # expect: RES101 "smtplib.SMTP"


def bounded(url):
    return http.get(url, timeout=HTTP_TIMEOUT)


def on_a_session(url):
    # adapters mounted on the session may fill in a timeout: not judged by its arguments
    return Session().get(url)


def record(path, url):
    with sqlite3.connect(path) as db:
        db.execute("insert into log values (?)", (url,))
        http.get(url, timeout=HTTP_TIMEOUT)  # expect: RES301
