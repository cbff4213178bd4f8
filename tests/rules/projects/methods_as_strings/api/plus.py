import httpx


class PlusAPI:
    # the headers reach the request through a local dict it unpacks (crewAI's tracing client)
    def __init__(self, api_key=None):
        self.base_url = "https://app.example"
        self.headers = {"Authorization": f"Bearer {api_key}"}

    def _make_request(self, method, endpoint, *, json=None, timeout=None):
        kwargs = {"headers": self.headers}
        if json is not None:
            kwargs["json"] = json
        if timeout is not None:
            kwargs["timeout"] = timeout
        with httpx.Client(trust_env=False) as client:
            return client.request(method, self.base_url + endpoint, **kwargs)

    def initialize_trace_batch(self, payload):
        return self._make_request("POST", "/tracing/batches", json=payload, timeout=30)
