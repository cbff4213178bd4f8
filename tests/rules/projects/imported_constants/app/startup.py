import socket

from app import settings
from app.defaults.values import read_int


def initialize(config):
    # what a project function returns replaces the placeholder: not known to be None
    settings.SOCKET_TIMEOUT = read_int(config, "socket_timeout", 30)
    socket.setdefaulttimeout(settings.SOCKET_TIMEOUT)
