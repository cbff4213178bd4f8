from api.base import BaseClient
from api.resources import Events


class ApiClient(BaseClient):
    def __init__(self, api_key, **kwargs):
        super().__init__(api_key, **kwargs)
        self.events = Events(self)
