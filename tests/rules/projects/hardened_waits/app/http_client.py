import requests_hardened
from django.conf import settings

HTTPConfig = requests_hardened.Config(never_redirect=True, default_timeout=settings.COMMON_REQUESTS_TIMEOUT)
HTTPClient = requests_hardened.Manager(HTTPConfig)
