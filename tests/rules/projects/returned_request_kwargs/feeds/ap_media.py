# The session is the base class's (another module); the timeout is in the dict a method of
# this class returns (superdesk-core's APMediaFeedingService).
from feeds.http_base import HTTPFeedingServiceBase


class APMediaFeedingService(HTTPFeedingServiceBase):
    HTTP_TIMEOUT = 40

    def products(self, url):
        response = self.session.get(url, **self.get_request_kwargs())  # expect: RES105 "may wait 40 s, above max-timeout (30 s)"
        return response.json()

    def get_request_kwargs(self):
        request_kwargs = dict(timeout=self.HTTP_TIMEOUT, allow_redirects=True)
        return request_kwargs


class PlainFeedingService(HTTPFeedingServiceBase):
    def products(self, url):
        return self.session.get(url, **self.get_request_kwargs())  # expect: RES101 "is called without a timeout"

    def get_request_kwargs(self):
        return {"allow_redirects": True}
