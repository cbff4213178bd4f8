# select: RES101
# jupyterhub's JupyterHubHTTPClient: one instance per loop, kept by a classmethod.
import requests


class HubHTTPClient:
    _loop_instances = {}

    def __init__(self):
        self.session = requests.Session()

    @classmethod
    def loop_instance(cls):
        if "loop" not in cls._loop_instances:
            cls._loop_instances["loop"] = cls()
        return cls._loop_instances["loop"]

    def fetch(self, url, **kwargs):
        return self.session.get(url, **kwargs)
