from typing import Protocol

import requests

WEBHOOK_TIMEOUT = (2, 10)


class PublisherLike(Protocol):
    def publish(self, payload, urls): ...


class WebhookPublisher:
    def publish(self, payload, urls):
        for url in urls:
            requests.post(url, json=payload, timeout=WEBHOOK_TIMEOUT)


class NullPublisher:
    def publish(self, payload, urls):
        return None


class HttpArchiver:
    def archive(self, rows):
        requests.post("https://archive.example/rows", json=rows, timeout=WEBHOOK_TIMEOUT)
