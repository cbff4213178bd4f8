import requests_hardened

from hooks.settings import WEBHOOK_TIMEOUT

HTTPClient = requests_hardened.Manager(requests_hardened.Config(default_timeout=WEBHOOK_TIMEOUT))
