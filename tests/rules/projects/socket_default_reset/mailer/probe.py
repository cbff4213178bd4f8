import socket
import xmlrpc.client


def test_connection(url):
    # a bound for one call, put back afterwards: no default for the process
    socket.setdefaulttimeout(5)
    try:
        return xmlrpc.client.ServerProxy(url).version()
    finally:
        socket.setdefaulttimeout(None)
