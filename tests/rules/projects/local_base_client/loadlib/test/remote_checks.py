# select: RES101
from loadlib.clients import HttpSession


def test_remote_relative():
    # no host of this machine in this file: the base is not known to be local
    s = HttpSession(base_url="https://api.example.com")
    assert s.get("/health").ok  # expect: RES101
