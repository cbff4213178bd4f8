# select: RES102
import socket

from devices import config


def open_link(host):
    sock = socket.create_connection((host, 7000), config.CONNECT_TIMEOUT)
    sock.settimeout(config.IDLE_TIMEOUT)  # expect: RES102 "IDLE_TIMEOUT is None"
    return sock
