# select: RES204
from celery import shared_task
from elastic_transport import ConnectionError as ElasticsearchConnectionError

from ret.embeddings import get_embeddings, get_embeddings_or_fail
from ret.errors import IndexWriteError

_RETRY = {
    "autoretry_for": (IndexWriteError, ElasticsearchConnectionError),
    "retry_backoff": True,
    "retry_jitter": True,
    "max_retries": 5,
}


@shared_task(**_RETRY)
def sync_documents(client, texts):
    return get_embeddings(client, texts, task="document")


@shared_task(**_RETRY)
def sync_documents_strictly(client, texts):
    return get_embeddings_or_fail(client, texts)  # expect: RES204 "a hand-written retry loop 4 attempts (ret/embeddings.py:18) = up to 24 calls"
