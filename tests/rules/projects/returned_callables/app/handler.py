from django.conf import settings

from app.validators import get_parser, get_webhook_request_function


class WebhookHandler:
    def make_request(self, method, url, payload):
        request = get_webhook_request_function()
        return request(method, url, json=payload, timeout=settings.WEBHOOK_TIMEOUT)

    def ping(self, url):
        request = get_webhook_request_function()
        return request("GET", url)  # expect: RES101 "the client comes from `get_webhook_request_function`"

    def parse(self, body):
        parse = get_parser()
        return parse(body)
