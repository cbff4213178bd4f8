"""Calls into the clients of the other modules, under retries of their own."""
import json
import random
import time

import backoff
import redis
import requests
import tenacity
import urllib3
from elasticsearch import ConnectionError as EsConnectionError
from elasticsearch import TransportError

from app import llm, search
from app.cache import cache, counters, forever, locks, once, plain
from app.pools import bare, counted, origin, retrying, single

REDIS_ERRORS = (redis.ConnectionError, redis.TimeoutError)
retry = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random_exponential(max=2), reraise=True)
poll = tenacity.retry(
    retry=tenacity.retry_if_result(lambda job: job.status in ("queued", "running")),
    stop=tenacity.stop_after_delay(600),
    wait=tenacity.wait_random(5, 15),
)


@retry
def summarize(text):
    return llm.Assistant().complete(text)  # expect: RES204 "tenacity 3 attempts (app/jobs.py:27) x OpenAI client max_retries=2 (the default) (app/llm.py:10) = up to 9 calls"


@retry
def classify(text):
    return llm.raw_client().chat.completions.create(model="m", messages=[{"role": "user", "content": text}])


@retry
def classify_patiently(text):
    return llm.PATIENT.chat.completions.create(model="m", messages=[{"role": "user", "content": text}])  # expect: RES204 "x OpenAI client max_retries=5 (app/llm.py:5) = up to 18 calls"


class LlmError(Exception):
    pass


@tenacity.retry(stop=tenacity.stop_after_attempt(3), retry=tenacity.retry_if_exception_type(requests.HTTPError))
def classify_other_errors(text):
    """Retries requests' errors only, which the OpenAI client never raises."""
    return llm.PATIENT.chat.completions.create(model="m", messages=[{"role": "user", "content": text}])


@tenacity.retry(stop=tenacity.stop_after_attempt(3), retry=tenacity.retry_if_exception_type(LlmError))
def classify_wrapped(text):
    return ask_patiently(text)  # expect: RES204 "x OpenAI client max_retries=5 (app/llm.py:5) = up to 18 calls"


def ask_patiently(text):
    try:
        return llm.PATIENT.chat.completions.create(model="m", messages=[{"role": "user", "content": text}])
    except Exception as error:
        raise LlmError(str(error)) from error


@retry
def classify_raw(text):
    return llm.RAW.chat.completions.create(model="m", messages=[{"role": "user", "content": text}])


@poll
def wait_for_finetune(job_id):
    return llm.DEFAULT.fine_tuning.jobs.retrieve(job_id)


@backoff.on_exception(backoff.expo, (EsConnectionError, TransportError), max_tries=5)
def index_document(doc):
    return search.Backend().put(doc)  # expect: RES204 "backoff 5 attempts (app/jobs.py:74) x Elasticsearch client max_retries=3 (the default) (app/search.py:6) = up to 20 calls"


@backoff.on_exception(backoff.expo, TransportError, max_tries=5)
def refresh_index(name):
    search.es_admin_client().indices.refresh(index=name)


@backoff.on_exception(backoff.expo, TransportError, max_tries=5)
def refresh_quietly(name):
    search.es_client().options(max_retries=0).indices.refresh(index=name)


@retry
def search_logs(query):
    return search.logs.search(index="logs", body=query)  # expect: RES204 "x OpenSearch client max_retries=2 (app/search.py:14) = up to 9 calls"


@retry
def cache_document(doc_id, body):
    cache.set(f"doc:{doc_id}", body, ex=3600)  # expect: RES204 "x redis-py Retry(retries=3) (app/cache.py:8) = up to 12 calls"


@retry
def acquire_lock(name):
    return locks.set(f"lock:{name}", "1", nx=True, ex=30)  # expect: RES204 "x redis-py retry_on_timeout=True (app/cache.py:9) = an unknown number of calls"


@retry
def bump_counter(name):
    return counters.incr(name)


@retry
def bump_once(name):
    return once.incr(name)  # expect: RES204 "x redis-py retry_on_timeout=True (1 retry) (app/cache.py:11) = up to 6 calls"


@retry
def bump_forever(name):
    return forever.incr(name)  # expect: RES204 "redis-py Retry(retries=-1), which retries for ever"


@retry
def bump_plain(name):
    pipe = plain.pipeline()
    pipe.incr(name)
    return pipe.execute()


def fetch_source(url):
    for attempt in range(3):
        try:
            resp = retrying.request("GET", url)  # expect: RES204 "a hand-written retry loop 3 attempts (app/jobs.py:127) x urllib3 Retry total=4 (app/pools.py:5) = up to 15 calls"
            if resp.status == 200:
                return json.loads(resp.data)
        except urllib3.exceptions.HTTPError:
            pass
        time.sleep(random.uniform(0, 2 ** attempt))
    raise RuntimeError(f"source {url} failed")


def fetch_thumbnail(url):
    for attempt in range(3):
        try:
            return single.request("GET", url).data
        except urllib3.exceptions.HTTPError:
            time.sleep(random.uniform(0, 2 ** attempt))
    return None


def fetch_once(url):
    for attempt in range(3):
        try:
            return bare.request("GET", url, retries=False).data
        except urllib3.exceptions.HTTPError:
            time.sleep(random.uniform(0, 2 ** attempt))
    return None


@retry
def fetch_bare(url):
    return bare.request("GET", url).data  # expect: RES204 "x urllib3 default retries=3 (app/pools.py:6) = up to 12 calls"


@retry
def fetch_counted(url):
    return counted.urlopen("GET", url).data  # expect: RES204 "x urllib3 Retry total=2 (app/pools.py:8) = up to 9 calls"


@retry
def manifest(path):
    return origin.request("GET", path).data  # expect: RES204 "x urllib3 Retry total=3 (app/pools.py:9) = up to 12 calls"


@retry
def fetch_module(url):
    return urllib3.request("GET", url, timeout=5).data  # expect: RES204 "x urllib3 default retries=3 (app/jobs.py:173) = up to 12 calls"


@retry
def fetch_module_once(url):
    return urllib3.request("GET", url, timeout=5, retries=False).data
