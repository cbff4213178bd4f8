import hashlib
import hmac

from app.web.auth import AuthBase


class PlainAuth(AuthBase):
    """The 'plain' exchange signs requests locally: no network at all."""

    def __init__(self, key, secret):
        self._key, self._secret = key, secret

    async def rest_authenticate(self, request):
        sig = hmac.new(self._secret.encode(), request["url"].encode(), hashlib.sha256).hexdigest()
        request["headers"]["X-KEY"] = self._key
        request["headers"]["X-SIG"] = sig
        return request
