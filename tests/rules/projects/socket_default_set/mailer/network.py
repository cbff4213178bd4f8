import socket

from mailer import settings

# set when the package is imported: every socket-default client of the process waits at most this
socket.setdefaulttimeout(settings.SOCKET_TIMEOUT)
