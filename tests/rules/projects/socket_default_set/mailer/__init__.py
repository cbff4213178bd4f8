# importing any mailer module runs this first, and with it the network settings
from mailer import network  # noqa: F401
