import logging

import requests

logger = logging.getLogger(__name__)


def post_quietly(url, data):
    # saleor's avatax ``api_post_request``: a lost response comes back as an empty answer
    try:
        response = requests.post(url, json=data, timeout=10)
        return response.json()
    except requests.RequestException:
        logger.exception("posting %s failed", url)
        return {}


def post_loudly(url, data):
    # the failure leaves as requests' own error, which the task does not retry
    response = requests.post(url, json=data, timeout=10)
    return response.json()
