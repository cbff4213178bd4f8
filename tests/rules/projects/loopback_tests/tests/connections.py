# select: RES101
# Project subclasses of http.client's connections: a loopback host is the test run's own
# server; a class that opens its connection its own way is judged where it does.
import socket
from http.client import HTTPConnection, HTTPSConnection


class RecordingConnection(HTTPSConnection):
    def getresponse(self, *args, **kwargs):
        return super().getresponse(*args, **kwargs)


class InProcessConnection(HTTPSConnection):
    """http.client connects in send(): this one answers from a socket pair, no network."""

    def send(self, data):
        server, client = socket.socketpair()
        server.sendall(b"HTTP/1.1 200 OK\r\n\r\n")
        server.close()
        self.sock = client


class TracingConnection(HTTPConnection):
    def send(self, data):
        print(len(data))
        return super().send(data)


def local_server():
    conn = RecordingConnection("localhost", port=8443)
    conn.request("GET", "/")
    return conn.getresponse()


def remote_server():
    conn = RecordingConnection("api.example.org")  # expect: RES101
    conn.request("GET", "/")
    return conn.getresponse()


def in_process(host):
    conn = InProcessConnection(host)
    conn.request("GET", "/")
    return conn.getresponse()


def traced(host):
    conn = TracingConnection(host)  # expect: RES101
    conn.request("GET", "/")
    return conn.getresponse()


def ldap_directory_of_the_test_run():
    import ldap3

    server = ldap3.Server("localhost", port=389, use_ssl=False, connect_timeout=5)
    return ldap3.Connection(server, user="manager", password="x", client_strategy=ldap3.SYNC)


def ldap_directory_elsewhere():
    import ldap3

    return ldap3.Connection(ldap3.Server("ldap.example.org"), client_strategy=ldap3.SYNC)  # expect: RES101
