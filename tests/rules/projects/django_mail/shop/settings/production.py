from .base import *  # noqa: F403

EMAIL_USE_TLS = True
