# select: RES101
from .base import *  # noqa: F403

# the split settings bound the SMTP backend in another module than the one naming the host
EMAIL_TIMEOUT = 10
