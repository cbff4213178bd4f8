import requests

DEFAULT_CONNECT_TIMEOUT = 5
DEFAULT_READ_TIMEOUT = 20


class NetworkClientError(Exception):
    pass


class NetworkClient(requests.Session):
    def __init__(self, base_url, timeout=None):
        super(NetworkClient, self).__init__()
        self.base_url = base_url
        self.timeout = timeout or (DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT)
        self.device_info = None

    def head(self, path, **kwargs):
        return self.request("HEAD", path, **kwargs)

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, **kwargs):
        return self.request("POST", path, **kwargs)

    def request(self, method, path, **kwargs):
        response = None
        if "timeout" not in kwargs:
            kwargs.update(timeout=self.timeout)

        url = self.base_url.rstrip("/") + "/" + path.lstrip("/")
        try:
            with super(NetworkClient, self).request(
                method, url, stream=True, **kwargs
            ) as response:
                response.content
            response.raise_for_status()
            return response
        except requests.exceptions.RequestException as e:
            raise NetworkClientError("Unable to connect: {}".format(url)) from e
