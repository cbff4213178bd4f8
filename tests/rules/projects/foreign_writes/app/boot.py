import socket

import requests

from app import config


def initialize(options):
    config.SOCKET_TIMEOUT = 30
    socket.setdefaulttimeout(config.SOCKET_TIMEOUT)
    config.SESSION = requests.Session()


def legacy():
    socket.setdefaulttimeout(config.LEGACY_TIMEOUT)  # expect: RES102
