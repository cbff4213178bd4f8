import typing

import requests


class HttpMethod(typing.Protocol):
    def __call__(self, *args, **kwargs) -> requests.Response:
        ...


class APIClient:
    def __init__(self, api_url):
        self.api_url = api_url

    def api_get(self, endpoint, **kwargs):
        return self.call_api(endpoint, requests.get, **kwargs)

    def call_api(self, endpoint, http_method: HttpMethod, **kwargs):
        # the protocol only types the parameter: what the callers pass is called
        return http_method(self.api_url + endpoint, **kwargs)


def health(client: APIClient):
    return client.api_get("api/health")  # expect: RES101 "through `APIClient.api_get`"
