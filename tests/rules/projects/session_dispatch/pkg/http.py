from requests import Session

from pkg.errors import PluginError


class HTTPSession(Session):
    # streamlink's: every failure of a request leaves as the project's error
    def request(self, method, url, exception=None, **kwargs):
        exception = exception or PluginError
        try:
            response = super().request(method, url, timeout=20, **kwargs)
            response.raise_for_status()
        except Exception as error:
            err = exception(f"Unable to open URL: {url} ({error})")
            raise err from error
        return response


class PlainSession(Session):
    def request(self, method, url, **kwargs):
        kwargs.setdefault("timeout", 20)
        return super().request(method, url, **kwargs)
