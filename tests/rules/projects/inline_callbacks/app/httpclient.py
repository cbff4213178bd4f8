import treq


class HTTPService:
    def _do_request(self, session, method, ep, **kwargs):
        url = session.base_url + ep
        return getattr(treq, method)(url, **kwargs)


class HTTPSession:
    def __init__(self, http: HTTPService, base_url: str):
        self.http = http
        self.base_url = base_url

    def get(self, ep, **kwargs):
        return self.http._do_request(self, 'get', ep, **kwargs)

    def post(self, ep, **kwargs):
        return self.http._do_request(self, 'post', ep, **kwargs)
