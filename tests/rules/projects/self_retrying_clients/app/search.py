from elasticsearch import Elasticsearch
from opensearchpy import OpenSearch


def es_client():
    return Elasticsearch(["http://es:9200"], request_timeout=10)


def es_admin_client():
    """Admin calls are retried by the caller, so the client must not retry again."""
    return Elasticsearch(["http://es:9200"], request_timeout=10, max_retries=0, retry_on_timeout=False)


logs = OpenSearch(["http://os:9200"], timeout=10, max_retries=2)


class Backend:
    def __init__(self, client=None, index="documents"):
        self.client = client or es_client()
        self.index = index

    def put(self, doc):
        return self.client.index(index=self.index, id=doc["id"], document=doc)
