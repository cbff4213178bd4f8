import redis
import tenacity
from redis.backoff import FullJitterBackoff, NoBackoff
from redis.retry import Retry

TIMEOUT = 2.0

cache = redis.Redis(host="cache", socket_timeout=TIMEOUT, retry=Retry(FullJitterBackoff(cap=1.0, base=0.05), 3))
locks = redis.Redis(host="cache", db=1, socket_timeout=TIMEOUT, retry_on_timeout=True)
counters = redis.Redis(host="cache", db=3, socket_timeout=TIMEOUT, retry=Retry(NoBackoff(), 0))
once = redis.Redis(host="cache", db=4, socket_timeout=TIMEOUT, retry=None, retry_on_timeout=True)
forever = redis.Redis(host="cache", db=5, socket_timeout=TIMEOUT, retry=Retry(NoBackoff(), -1))
plain = redis.Redis(host="cache", db=6, socket_timeout=TIMEOUT)


@tenacity.retry(stop=tenacity.stop_after_attempt(2), wait=tenacity.wait_random(0, 1), reraise=True)
def flush(names):
    pipe = cache.pipeline()
    for name in names:
        pipe.delete(name)
    return pipe.execute()  # expect: RES204 "tenacity 2 attempts (app/cache.py:16) x redis-py Retry(retries=3) (app/cache.py:8) = up to 8 calls"


@tenacity.retry(stop=tenacity.stop_after_attempt(2), wait=tenacity.wait_random(0, 1), reraise=True)
def flush_plain(names):
    pipe = plain.pipeline()
    for name in names:
        pipe.delete(name)
    return pipe.execute()
