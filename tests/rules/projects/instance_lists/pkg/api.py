from urllib.parse import urljoin

import requests


class PyMISP:

    def __init__(self, url, key, ssl=True, debug=False, timeout=None):
        self.root_url = url
        self.key = key
        self.ssl = ssl
        self.timeout = timeout
        self.__session = requests.Session()
        self.version = self._prepare_request('GET', 'servers/getVersion').json()

    def update_misp(self):
        return self._prepare_request('POST', 'servers/update').json()

    def _prepare_request(self, request_type, url):
        url = urljoin(self.root_url, url)
        req = requests.Request(request_type, url)
        prepped = self.__session.prepare_request(req)
        settings = self.__session.merge_environment_settings(req.url, proxies={}, stream=None,
                                                             verify=self.ssl, cert=None)
        return self.__session.send(prepped, timeout=self.timeout, **settings)
