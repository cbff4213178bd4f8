import datetime
from typing import Final

import httpx

HTTP_TIMEOUT = 120
SHORT_TIMEOUT = 7.5
SPLIT_TIMEOUT = (3.05, 27)
REPORT_TIMEOUT = (5, 300)
FRAUD_TIMEOUT = None
MAYBE_TIMEOUT = None
SOCKET_TIMEOUT = None  # a placeholder: start-up sets it from the configuration (startup.py)
LABELS = ("a", "b")
STREAM_TIMEOUT = httpx.Timeout(5, read=None)
SLOW_CONSUMER = datetime.timedelta(minutes=2).total_seconds()


def configure(value):
    global TUNED_TIMEOUT
    TUNED_TIMEOUT = value


TUNED_TIMEOUT = 60


def tune(value):
    global MAYBE_TIMEOUT
    MAYBE_TIMEOUT = 10

SERVER_TIMEOUT: Final = 5
# arithmetic on another constant of the module
BACKUP_TIMEOUT: Final = SERVER_TIMEOUT * 30
