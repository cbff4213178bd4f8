"""Requests on a urllib3 pool whose own retries a request may replace through ``**kwargs``."""
import random
import time

import urllib3

from app import settings

pool = urllib3.PoolManager(timeout=urllib3.Timeout(connect=1, read=5))


def members(stoptime):
    kwargs = {"preload_content": True, "retries": 0}
    while True:
        try:
            return pool.request("GET", settings.CLUSTER_URL, **kwargs)
        except urllib3.exceptions.HTTPError:
            if time.time() > stoptime:
                raise
            time.sleep(random.uniform(0, 1))


def _send(method, path, **kwargs):
    return pool.request(method, settings.CLUSTER_URL + path, **kwargs)


def api_request(method, path, stoptime, **kwargs):
    kwargs.update(retries=0)  # each request once: the loop below retries
    while True:
        try:
            return _send(method, path, **kwargs)
        except urllib3.exceptions.HTTPError:
            if time.time() > stoptime:
                raise
            time.sleep(random.uniform(0, 1))


def leader(stoptime):
    kwargs = {"preload_content": True}
    while True:
        try:
            return pool.request("GET", settings.CLUSTER_URL + "leader", **kwargs)  # expect: RES204 "x urllib3 default retries=3"
        except urllib3.exceptions.HTTPError:
            if time.time() > stoptime:
                raise
            time.sleep(random.uniform(0, 1))


class ApiError(Exception):
    def __init__(self, status):
        super().__init__(status)
        self.status = status


def _endpoints(servers):
    for server in servers:
        try:
            return pool.request("GET", server + "/endpoints", retries=2)
        except Exception as e:
            if isinstance(e, ApiError) and e.status == 403:
                raise  # the pool's spent retries end here: only the project's refusal goes on
    return []


def _endpoints_reraised(servers):
    for server in servers:
        try:
            return pool.request("GET", server + "/endpoints", retries=2)
        except Exception as e:
            if isinstance(e, urllib3.exceptions.HTTPError):
                raise
    return []


def refresh(servers, stoptime):
    while True:
        try:
            return _endpoints(servers), _endpoints_reraised(servers)  # expect: RES204 "x urllib3 retries=2"
        except Exception:
            if time.time() > stoptime:
                raise
            time.sleep(random.uniform(0, 1))
