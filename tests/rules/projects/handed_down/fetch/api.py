"""The functions the engines call: one network, chosen per thread."""
import asyncio

from fetch.network import get_network


def request(method, url, **kwargs):
    network = get_network("default")
    return asyncio.run(network.request(method, url, **kwargs))


def get(url, **kwargs):
    return request("get", url, **kwargs)


def post(url, data=None, **kwargs):
    return request("post", url, data=data, **kwargs)
