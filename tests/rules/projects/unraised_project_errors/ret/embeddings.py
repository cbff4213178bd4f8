# select: RES204
# kitsune: the embedding adapter owns the provider's retries; the task retries the search
# index's failures, and the project's own error, which only the second path raises from the
# provider's.
import random
import time

from google.genai.errors import APIError
from httpx import TransportError

from ret.errors import IndexWriteError

_MAX_ATTEMPTS = 4


def _embed_batch_with_retry(client, batch, *, task):
    max_attempts = _MAX_ATTEMPTS if task == "document" else 1
    for attempt in range(max_attempts):
        try:
            return client.models.embed_content(model="m", contents=batch)
        except (APIError, TransportError) as exc:
            retryable = not isinstance(exc, APIError) or exc.code == 429
            if not retryable or attempt == max_attempts - 1:
                raise
            time.sleep(0.5 * 2**attempt + random.uniform(0, 0.5))
    raise AssertionError("retry loop exited unexpectedly")


def get_embeddings(client, texts, *, task):
    return _embed_batch_with_retry(client, texts, task=task)


def get_embeddings_or_fail(client, texts):
    try:
        return _embed_batch_with_retry(client, texts, task="document")
    except APIError as e:
        raise IndexWriteError(str(e)) from e
