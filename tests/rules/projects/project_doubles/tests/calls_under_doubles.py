# select: RES101
import requests

from pkg.testing import HttpMocker
from pkg.testing.clock import MockClock


@HttpMocker()
def test_decorated():
    requests.get("https://api.example/x")


def test_with_block():
    with HttpMocker():
        requests.get("https://api.example/x")


@MockClock()
def test_not_a_network_double():
    requests.get("https://api.example/x")  # expect: RES101


def test_outside():
    requests.get("https://api.example/x")  # expect: RES101
