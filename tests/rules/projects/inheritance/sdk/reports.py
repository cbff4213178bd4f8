import tenacity

from sdk.resources import Resource


class Reports(Resource):
    @tenacity.retry(stop=tenacity.stop_after_attempt(2), wait=tenacity.wait_random(0, 1), reraise=True)
    def fetch(self, name):
        # the base class's property, in another module, returns the owner's retrying session
        return self.http.get(f"{self._client.base_url}/reports/{name}", timeout=10)  # expect: RES204 "x urllib3 Retry total=3"
