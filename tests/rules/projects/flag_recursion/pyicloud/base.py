"""pyicloud/base.py, reduced: a requests.Session subclass whose request() sends a failed
request (421/450/500) once more by calling itself with a `retried` flag."""
import json

from requests import Session

from pyicloud.services import AppleDevice

HTTP_TIMEOUT = (3.05, 10)


class PyiCloudSession(Session):
    """iCloud session."""

    def __init__(self, service):
        self.service = service
        super().__init__()

    def request(self, method, url, **kwargs):
        has_retried = kwargs.get("retried")
        kwargs.pop("retried", None)
        response = super().request(method, url, **kwargs)

        if not response.ok:
            if has_retried is None and response.status_code in [421, 450, 500]:
                kwargs["retried"] = True
                return self.request(method, url, **kwargs)
            raise RuntimeError(response.reason)
        return response


class PyiCloudService:
    SETUP_ENDPOINT = "https://setup.icloud.com/setup/ws/1"

    def __init__(self):
        self.session = PyiCloudSession(self)

    def send_verification_code(self, device):
        request = self.session.post(  # expect: RES201 "retried in `request` by a retry by recursion"
            "%s/sendVerificationCode" % self.SETUP_ENDPOINT,
            data=json.dumps(device),
            timeout=HTTP_TIMEOUT,
        )
        return request.json().get("success", False)

    @property
    def iphone(self):
        return AppleDevice("https://fmip.icloud.com", self.session)
