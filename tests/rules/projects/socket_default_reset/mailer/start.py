import socket


def main():
    # a start-up routine: it holds only for the processes that run it, which the code cannot tell
    socket.setdefaulttimeout(30)
