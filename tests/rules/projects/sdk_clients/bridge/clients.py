# select: RES1, RES201, RES301
import slumber
from requests_hardened import Config, Manager
from requests_oauthlib import OAuth2Session

from bridge import settings

HTTP = Manager(
    Config(
        ip_filter_enable=True,
        ip_filter_allow_loopback_ips=False,
        never_redirect=True,
        default_timeout=settings.HTTP_TIMEOUT,
    )
)
UNBOUNDED = Manager(Config(True, False, True, None))  # expect: RES102

erp = slumber.API(settings.ERP_URL, auth=("bridge", settings.ERP_TOKEN))  # expect: RES101 "slumber sends every request"


def partner_session(token):
    return OAuth2Session(settings.PARTNER_CLIENT_ID, token=token)
