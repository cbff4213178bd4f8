"""slack_sdk clients: each request is sent again on a failed connection, unless told otherwise."""
import tenacity
from slack_sdk import WebClient
from slack_sdk.http_retry import RateLimitErrorRetryHandler, default_retry_handlers

from app import settings

retry = tenacity.retry(stop=tenacity.stop_after_attempt(5), wait=tenacity.wait_random_exponential(max=2), reraise=True)
CHAT = WebClient(token=settings.SLACK_TOKEN)
PATIENT_CHAT = WebClient(
    token=settings.SLACK_TOKEN, retry_handlers=default_retry_handlers() + [RateLimitErrorRetryHandler(max_retry_count=3)],
)
PLAIN_CHAT = WebClient(token=settings.SLACK_TOKEN, retry_handlers=[])


@retry
def make_call(client, endpoint, **kwargs):
    return client.api_call(endpoint, json=kwargs)  # expect: RES204 "tenacity 5 attempts (app/chat.py:16) x slack_sdk default_retry_handlers() (1 retry on a failed connection) (app/chat.py:9) = up to 10 calls"


def notify(channel, text):
    return make_call(CHAT, "chat.postMessage", channel=channel, text=text)


@retry
def make_typed_call(client: WebClient, endpoint: str, **kwargs):
    return client.api_call(endpoint, json=kwargs)  # expect: RES204 "x slack_sdk client retries (app/chat.py:27) = an unknown number of calls"


@retry
def announce(channel, text):
    return PATIENT_CHAT.chat_postMessage(channel=channel, text=text)  # expect: RES204 "tenacity 5 attempts (app/chat.py:30) x slack_sdk retry_handlers (max_retry_count=3) (app/chat.py:10) = up to 20 calls"


@retry
def announce_once_per_attempt(channel, text):
    return PLAIN_CHAT.chat_postMessage(channel=channel, text=text)
