# select: RES101
# A helper whose URL is its parameter: every call of it in the file hands it a URL of this
# machine (the container the test run starts), or not.
import subprocess
import time

import requests


def _port(name):
    return subprocess.run(["docker", "port", name], capture_output=True, text=True).stdout.strip()


def _local_url(name):
    return f"http://localhost:{_port(name)}"


def _is_up(base_url):
    return requests.get(f"{base_url}/api/status").ok


def wait_for(name):
    url = _local_url(name)
    while not _is_up(base_url=url):
        time.sleep(1)
    return url


def _fetch(url):
    return requests.get(url)  # expect: RES101


def sync():
    _fetch("http://127.0.0.1:8000/health")
    return _fetch("https://feeds.example.org/latest")
