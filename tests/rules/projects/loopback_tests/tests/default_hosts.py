# select: RES101
# A test helper whose host parameter defaults to this machine, and that no call of the file
# hands another (beets' BPD test helper): it connects to the server it just started.
import multiprocessing
import socket
from contextlib import contextmanager


def serve(ports):
    server = socket.socket()
    server.bind(("localhost", 0))
    server.listen()
    ports.put(server.getsockname()[1])
    server.accept()


@contextmanager
def connected(host="localhost"):
    ports = multiprocessing.Queue(1)
    process = multiprocessing.Process(target=serve, args=(ports,))
    process.start()
    sock = socket.socket()
    sock.connect((host, ports.get(timeout=1)))
    yield sock
    process.terminate()


@contextmanager
def connected_to(host="localhost"):
    sock = socket.socket()
    sock.connect((host, 6600))  # expect: RES101
    yield sock


def test_ping():
    with connected() as client:
        client.sendall(b"ping\n")


def test_remote():
    with connected_to("mpd.example.org") as client:
        client.sendall(b"ping\n")
