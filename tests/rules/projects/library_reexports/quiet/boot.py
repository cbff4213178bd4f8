import socket

socket.setdefaulttimeout(10)
