import time

from elasticsearch.exceptions import ConnectionError

from search.factories import forwarding_client, quiet_client, search_client


class Alerter:
    def __init__(self, conf):
        self.index = conf["index"]
        self.es = search_client(conf)
        self.quiet = quiet_client(conf)
        self.forwarding = forwarding_client(conf)

    def wait_until_responsive(self):
        for _ in range(5):
            try:
                if self.es.indices.exists(self.index):  # expect: RES204 "5 attempts (search/waits.py:16) x Elasticsearch client max_retries=3 (the default) (search/__init__.py:9) = up to 20 calls"
                    return
            except ConnectionError:
                time.sleep(1.0)

    def wait_quietly(self):
        for _ in range(5):
            try:
                if self.quiet.indices.exists(self.index):
                    return
            except ConnectionError:
                time.sleep(1.0)

    def wait_forwarding(self):
        for _ in range(5):
            try:
                if self.forwarding.indices.exists(self.index):
                    return
            except ConnectionError:
                time.sleep(1.0)
