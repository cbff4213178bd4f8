# select: RES204
import time

import elasticsearch

from app.es.connection_context import ConnectionContext


class ESCrashStorage:
    def __init__(self, url="http://localhost:9200", timeout=30, ca_certs=None):
        self.client = self.build_client(url=url, timeout=timeout, ca_certs=ca_certs)

    @classmethod
    def build_client(cls, url, timeout, ca_certs):
        return ConnectionContext(url=url, timeout=timeout, ca_certs=ca_certs)

    def _index_crash(self, connection, es_index, crash_document, crash_id):
        connection.index(index=es_index, body=crash_document, id=crash_id)

    def _submit_crash_to_elasticsearch(self, crash_id, index_name, crash_document):
        # Don't retry more than 5 times.
        for _ in range(5):
            try:
                with self.client() as conn:
                    return self._index_crash(conn, index_name, crash_document, crash_id)  # expect: RES204 "a hand-written retry loop 5 attempts (app/es/crashstorage.py:22) x Elasticsearch client max_retries=3 (the default) (app/es/connection_context.py:15) = up to 20 calls"

            except elasticsearch.ConnectionError:
                # If this is a connection error, sleep a second and then try again
                time.sleep(1.0)
