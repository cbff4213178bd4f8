from sdk.base import BaseClient
from sdk.reports import Reports
from sdk.resources import Exports, Files


class FullClient(BaseClient):
    def __init__(self, base_url):
        super().__init__(base_url)
        self.files = Files(self)
        self.exports = Exports(self)
        self.reports = Reports(self)
