from .values import LONG_TIMEOUT
