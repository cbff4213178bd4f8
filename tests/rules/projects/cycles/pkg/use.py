import tenacity

from pkg.loops import Node, itself, merged, wrapper


def a(url):
    return itself().get(url)


def b(url):
    return wrapper(a)(url).json()


@tenacity.retry(
    stop=tenacity.stop_after_attempt(3),
    wait=tenacity.wait_random(0, 1),
    retry=tenacity.retry_if_exception_type(ConnectionError),
    reraise=True,
)
def c(url):
    return Node().child().child().fetch(url)


def d(url, extra):
    return Node().session.post(url, headers=merged(extra))  # expect: RES101
