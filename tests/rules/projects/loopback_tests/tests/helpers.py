# select: RES101
# Test code calling the server its own run starts (a loopback URL): that wait is the test
# run's own; a call to another host from the same tests still needs a timeout.
import ftplib
import smtplib
import unittest

import redis
import requests

BASE = "http://127.0.0.1:6666/"


def modules():
    return requests.get(BASE + "modules").json()


def wiki_page():
    return requests.get("https://wiki.example.org/page")  # expect: RES101


class ModulesTest(unittest.TestCase):
    def setUp(self):
        self.url = "http://localhost:6666/"

    def check_query(self):
        return requests.post(self.url + "query", json={"module": "dns"})


def local_redis():
    # the Redis the test run starts, by its host keyword
    return redis.Redis(host="localhost", port=6379)


def shared_redis():
    return redis.Redis(host="cache.example.org", port=6379)  # expect: RES101


PORT = 6666


def webhook_status():
    # URL templates of this machine, filled with .format() and %
    requests.post("http://localhost:{}/webhook".format(PORT), json={})
    return requests.get("http://127.0.0.1:%d/status" % PORT)


def local_mail_and_ftp():
    # clients that wait the socket default, given a host of this machine (judged with the
    # whole project, which reads the host the file records)
    smtplib.SMTP("localhost", 1025).quit()
    return ftplib.FTP("127.0.0.1", "anonymous")


def remote_mail():
    return smtplib.SMTP("mail.example.org")  # expect: RES101


def local_sockets(port):
    # socket addresses of this machine: the server the test started
    import socket

    with socket.socket() as client:
        client.connect(("localhost", port))
    address = ("127.0.0.1", port)
    return socket.create_connection(address)


def remote_socket():
    import socket

    return socket.create_connection(("mail.example.org", 25))  # expect: RES101


LOCAL_URL = "http://localhost:18080"


def health():
    # templates that start with a base URL of this machine
    requests.get(f"{LOCAL_URL}/health")
    return requests.get("{}/health".format(LOCAL_URL))


def remote_health(base):
    return requests.get(f"{base}/health")  # expect: RES101
