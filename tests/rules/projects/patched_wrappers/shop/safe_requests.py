import requests


class _SafeSession(requests.Session):
    def get(self, url, **kwargs):
        kwargs.setdefault("allow_redirects", False)
        return super().get(url, **kwargs)


def create_safe_session():
    return _SafeSession()


def raw_get(url, **kwargs):
    session = create_safe_session()
    try:
        return session.get(url, **kwargs)
    finally:
        session.close()
