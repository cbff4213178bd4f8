from redis import Redis
from rq import Queue, Retry

from indexer.partner import push_to_partner, read_from_partner

queue = Queue("indexing", connection=Redis(socket_timeout=5))


def schedule_push(doc):
    return queue.enqueue(push_to_partner, doc, retry=Retry(max=3, interval=60))  # expect: RES201, RES202


def schedule_read(doc_id):
    return queue.enqueue(read_from_partner, doc_id, retry=Retry(max=3, interval=[10, 30, 60]))  # expect: RES202 "grows"


def schedule_once(doc):
    return queue.enqueue(push_to_partner, doc)
