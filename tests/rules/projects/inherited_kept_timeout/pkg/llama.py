import requests

from pkg.base import GenAIClient, register


@register("llama")
class LlamaCppClient(GenAIClient):
    def send(self, payload):
        return requests.post(self.cfg.url, json=payload, timeout=self.timeout)


class TunedClient(LlamaCppClient):
    # an ``__init__`` of its own decides what it keeps
    def __init__(self, cfg, timeout=20):
        super().__init__(cfg, timeout)
