# select: RES204
from slack.service import create_patient_client, create_slack_client, make_call, make_patient_call


def post(token: str, channel: str):
    return make_call(create_slack_client(token), "chat.postMessage", channel=channel)


def post_patiently(token: str, channel: str):
    return make_patient_call(create_patient_client(token), "chat.postMessage", channel=channel)
