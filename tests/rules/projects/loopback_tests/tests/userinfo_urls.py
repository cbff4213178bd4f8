# select: RES101
# A URL of this machine with a user and password before its host (pypiserver's tests).
from urllib.request import urlopen


def build_url(port, user="", pswd=""):
    auth = f"{user}:{pswd}@" if user or pswd else ""
    return f"http://{auth}localhost:{port}"


def test_through_helper(port):
    url = build_url(port) + "/simple"
    assert urlopen(url).getcode() == 200


def test_written_out(port):
    assert urlopen(f"http://user:pswd@localhost:{port}/simple").getcode() == 200


def test_remote_host_with_user():
    urlopen("https://user:pswd@pypi.example.org/simple")  # expect: RES101 "without a timeout"


def test_host_as_user_name():
    urlopen("https://localhost@pypi.example.org/simple")  # expect: RES101 "without a timeout"
