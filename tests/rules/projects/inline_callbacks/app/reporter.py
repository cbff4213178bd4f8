from twisted.internet import defer

from app import httpclient


class HttpReporter:
    @defer.inlineCallbacks
    def reconfigService(self, service, url):
        # inlineCallbacks: `yield` of a non-Deferred hands the object straight back
        self._http = yield httpclient.HTTPSession(service, url)

    @defer.inlineCallbacks
    def sendMessage(self, body):
        response = yield self._http.post("", json=body)  # expect: RES101
        return response


class AnnotatedReporter:
    @defer.inlineCallbacks
    def reconfigService(self, service, url):
        self._http: httpclient.HTTPSession = yield httpclient.HTTPSession(service, url)

    def sendMessage(self, body):
        return self._http.post("", json=body)  # expect: RES101


class PlainReporter:
    def reconfigService(self, service, url):
        self._http = httpclient.HTTPSession(service, url)

    def sendMessage(self, body):
        return self._http.post("", json=body)  # expect: RES101


class LocalYield:
    @defer.inlineCallbacks
    def fetch(self, service, url):
        http = yield httpclient.HTTPSession(service, url)
        res = yield http.get("/users/x")  # expect: RES101
        return res
