# select: RES1
import unittest
from unittest import mock

from cli import httpclient, models


class ResourceManagerCases(unittest.TestCase):
    @mock.patch.object(httpclient.HTTPClient, "post", mock.MagicMock(return_value=None))
    def test_create(self):
        # the project method the request goes through is replaced in this test
        models.ResourceManager("http://api.example").create({"name": "abc"})

    def test_create_for_real(self):
        models.ResourceManager("http://api.example").create({"name": "abc"})  # expect: RES101
