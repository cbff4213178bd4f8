# select: RES101
import requests

from app.network import hook_kwargs, merged_kwargs, timed_kwargs

PROFILE_TIMEOUT = (3.05, 10)


def server_name(server_url):
    return requests.get(f"{server_url}/api/v2/instance", **hook_kwargs()).json()  # expect: RES101 "`**hook_kwargs()`"


def server_name_timed(server_url):
    return requests.get(f"{server_url}/api/v2/instance", **timed_kwargs(PROFILE_TIMEOUT)).json()


def server_name_merged(server_url, extra):
    return requests.get(f"{server_url}/api/v2/instance", **merged_kwargs(extra)).json()


def server_name_given(server_url):
    return requests.get(f"{server_url}/api/v2/instance", timeout=PROFILE_TIMEOUT, **hook_kwargs()).json()
