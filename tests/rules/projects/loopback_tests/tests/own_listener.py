# select: RES101
# A connect to the listener the test bound itself, written with ``create_connection`` (redis-py).
import socket


def test_half_close():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    client = socket.create_connection(listener.getsockname())
    server, _ = listener.accept()
    server.close()
    assert client.recv(1) == b""


def test_remote():
    socket.create_connection(("redis.example", 6379))  # expect: RES101 "without a timeout"
