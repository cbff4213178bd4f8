# test settings do not bound the mail the application sends
from shop.settings.base import *  # noqa: F403

EMAIL_TIMEOUT = 1
