import os

from st2client.client import Client


class ActionDatastoreService(object):
    def __init__(self, auth_token):
        self._auth_token = auth_token
        self._client = None

    def get_api_client(self):
        if not self._client:
            self._client = Client(api_url=os.environ["API_URL"], token=self._auth_token)
        return self._client

    def get_value(self, name):
        client = self.get_api_client()
        return client.keys.get_by_id(id=name, params={"decrypt": False})  # expect: RES101 "`requests.get` is called through `ResourceManager.get_by_id`"
