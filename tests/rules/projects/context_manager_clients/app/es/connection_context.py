from contextlib import contextmanager

from elasticsearch import Elasticsearch


class ConnectionContext:
    def __init__(self, url="http://localhost:9200", timeout=30, ca_certs=None, **kwargs):
        self.url = url
        self.timeout = timeout
        self.ca_certs = ca_certs

    def connection(self, name=None, timeout=None):
        if timeout is None:
            timeout = self.timeout
        return Elasticsearch(
            hosts=self.url,
            request_timeout=timeout,
            verify_certs=True,
            ca_certs=self.ca_certs,
        )

    @contextmanager
    def __call__(self, name=None, timeout=None):
        conn = self.connection(name, timeout)
        yield conn
