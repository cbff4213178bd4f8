"""A jira client: its ResilientSession retries connection errors, 429 and 503 by itself."""
import tenacity
from jira import JIRA

from app import settings

TRACKER = JIRA(settings.JIRA_URL, token_auth=settings.JIRA_TOKEN, timeout=settings.JIRA_TIMEOUT)
RAW_TRACKER = JIRA(settings.JIRA_URL, token_auth=settings.JIRA_TOKEN, timeout=settings.JIRA_TIMEOUT, max_retries=0)
retry = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random_exponential(max=2), reraise=True)


@retry
def comment(key, text):
    return TRACKER.add_comment(key, text)  # expect: RES204 "tenacity 3 attempts (app/tracker.py:12) x jira client max_retries=3 (the default) (app/tracker.py:7) = up to 12 calls"


@retry
def comment_once_per_attempt(key, text):
    return RAW_TRACKER.add_comment(key, text)


@retry
def server_url():
    return TRACKER.client_info()
