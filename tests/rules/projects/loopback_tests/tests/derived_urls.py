# select: RES101
# kinto's functional tests: URLs of the server the Makefile starts, derived step by step from
# its base (joined, filled into templates with ``.format`` and ``%``, edited with ``re.sub``);
# one of another host is still judged.
import re
from urllib.parse import urljoin

import requests

SERVER_URL = "http://localhost:8888/v1"
PARTNER_URL = "https://partner.example/v1"


class FunctionalTest:
    server_url = SERVER_URL

    def setUp(self):
        self.session = requests.Session()

    def test_records(self):
        bucket_url = urljoin(self.server_url, "/buckets/b")
        collection_url = "{}/collections/{}/records".format(bucket_url, "tasks")
        record_url = "{}/{}".format(collection_url, "alice")
        self.session.patch(record_url, json={"data": {"done": True}})
        self.session.get("%s?_since=%s" % (collection_url, "42"))
        self.session.get(re.sub("/records$", "", collection_url))

    def test_partner(self):
        self.session.get("%s/health" % PARTNER_URL)  # expect: RES101
