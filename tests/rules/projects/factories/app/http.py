import functools
import os

import boto3
import requests


@functools.lru_cache(maxsize=None)
def shared_session():
    return requests.Session()


def build():
    return shared_session()


@functools.cache
def storage():
    return boto3.client("s3")


class Client:
    def __init__(self, url):
        self.url = url
        self.http = build()

    @classmethod
    def from_env(cls):
        return cls(os.environ["API_URL"])

    @functools.cached_property
    def files(self):
        return storage()

    def get(self, path):
        return self.http.get(self.url + path)  # expect: RES101
