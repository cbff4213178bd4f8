# select: RES101
import urllib.request


def fetch(url):
    # this package does not import mailer: nothing sets a default for it
    return urllib.request.urlopen(url).read()  # expect: RES101
