# select: RES101
from unittest import TestCase, mock

from sessions.http import ConfiguredSession
from sessions.runner import Runner


class RunnerTestCase(TestCase):
    @mock.patch.object(ConfiguredSession, "request")
    def test_get_response(self, mock_request):
        # every request of the project's session class goes through the method the test replaced
        mock_request.return_value = mock.Mock(status_code=200)
        self.assertEqual(Runner().get_response("https://example.com/").status_code, 200)

    def test_get_response_for_real(self):
        self.assertEqual(Runner().get_response("https://example.com/").status_code, 200)  # expect: RES101
