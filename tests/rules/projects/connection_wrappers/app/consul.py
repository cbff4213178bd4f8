"""A pool built without a timeout whose every request sets one in the mapping it unpacks."""
import urllib3


class HTTPClient:
    def __init__(self, base_uri, read_timeout):
        self.base_uri = base_uri
        self.read_timeout = read_timeout
        self.http = urllib3.PoolManager(num_pools=10, maxsize=10)
        self.blocking = urllib3.PoolManager(num_pools=2)  # expect: RES101

    def get(self, path, params=None):
        kwargs = {"retries": 0, "preload_content": False}
        if params and "index" in params:
            kwargs["timeout"] = float(params["wait"]) + 1
        else:
            kwargs["timeout"] = self.read_timeout
        return self.http.request("GET", self.base_uri + path, **kwargs)

    def put(self, path, body):
        kwargs = {"retries": 0, "body": body}
        kwargs["timeout"] = self.read_timeout
        return self.http.request("PUT", self.base_uri + path, **kwargs)

    def watch(self, path, params):
        kwargs = {"retries": 0}
        if "index" in params:
            kwargs["timeout"] = float(params["wait"]) + 1  # only on one path: the other waits by the pool's default
        return self.blocking.request("GET", self.base_uri + path, **kwargs)
