# select: RES102
from app.client import OAuth

HELD = []


def login_link(state):
    # the object only builds a URL: no method that posts runs on it
    oauth = OAuth("id")
    return oauth.authorize_url(state=state)


def login_link_through_method():
    return OAuth("id").login_url()


def login_link_and_handler():
    oauth = OAuth("id")
    handler = oauth.cache_handler
    return oauth.login_url(), handler


def token(code):
    oauth = OAuth("id")  # expect: RES102 "the default `requests_timeout=None` of `OAuth`"
    url = oauth.authorize_url()
    return url, oauth.access_token(code)


def cached():
    return OAuth("id").cached_token()  # expect: RES102 "the default `requests_timeout=None` of `OAuth`"


def handed_on(use):
    oauth = OAuth("id")  # expect: RES102 "the default `requests_timeout=None` of `OAuth`"
    use(oauth)


def kept_elsewhere():
    oauth = OAuth("id")  # expect: RES102 "the default `requests_timeout=None` of `OAuth`"
    HELD.append(oauth)


def method_handed_on(use):
    oauth = OAuth("id")  # expect: RES102 "the default `requests_timeout=None` of `OAuth`"
    use(oauth.access_token)


def description(url):
    from app.client import Checked

    checked = Checked(url)  # expect: RES102 "the default `timeout=None` of `Checked`"
    return checked.describe()


def service_login(url):
    from app.client import Auth

    auth = Auth(url)  # expect: RES102 "the default `http_timeout=None` of `Auth`"
    return auth.service_auth()


def rejects_missing_id():
    # thrown away at once: only its constructor runs, and it sends nothing
    try:
        OAuth(None)
    except ValueError:
        return True
    return False
