# select: RES101
import quiet.boot  # noqa: F401  (importing it bounds every socket of the process)
from shop.compat import urlopen


def feed(url):
    return urlopen(url).read()
