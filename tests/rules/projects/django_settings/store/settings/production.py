from .base import *  # noqa: F403

EXPORT_TIMEOUT = 90
