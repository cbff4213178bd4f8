# select: RES101
# The same classes made in another module: judged by the project pass.
from tests.connections import InProcessConnection, RecordingConnection


def local_server():
    return RecordingConnection("127.0.0.1", 8443)


def in_process():
    return InProcessConnection("api.example.org")


def remote_server():
    return RecordingConnection("api.example.org")  # expect: RES101
