from slack_sdk import WebClient
from tenacity import retry, stop_after_attempt, wait_random


def create_slack_client(token: str) -> WebClient:
    return WebClient(token=token)


@retry(stop=stop_after_attempt(5), wait=wait_random(0, 2))
def make_call(client: WebClient, endpoint: str, **kwargs):
    # the annotation and the caller's client are one client: one finding, with its count
    return client.api_call(endpoint, json=kwargs)  # expect: RES204 "up to 10 calls"


def post_message(token: str, channel: str, text: str):
    return make_call(create_slack_client(token), "chat.postMessage", channel=channel, text=text)
