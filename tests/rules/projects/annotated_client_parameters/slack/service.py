# select: RES204
# dispatch's Slack plugin: the retried function is handed its client; what the callers pass
# decides which retries the client adds.
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler
from slack_sdk.web.client import WebClient
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential


def create_slack_client(token: str) -> WebClient:
    return WebClient(token=token)


def create_patient_client(token: str) -> WebClient:
    return WebClient(token=token, retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=2)])


@retry(stop=stop_after_attempt(5), retry=retry_if_exception_type(SlackApiError), wait=wait_random_exponential(max=60))
def make_call(client: WebClient, endpoint: str, **kwargs):
    return client.api_call(endpoint, json=kwargs)


@retry(stop=stop_after_attempt(5), retry=retry_if_exception_type(SlackApiError), wait=wait_random_exponential(max=60))
def make_patient_call(client: WebClient, endpoint: str, **kwargs):
    return client.api_call(endpoint, json=kwargs)  # expect: RES204 "slack_sdk retry_handlers (max_retry_count=2)"
