# select: RES301
import unittest

import responses

from app.models import Token
from app.remotetoken import RemoteTokenClass


class RemoteTokenTestCase(unittest.TestCase):
    @responses.activate
    def test_check_otp(self):
        # the request two modules down is answered by the double this test installs
        responses.add(responses.POST, "http://remote.example/validate/check", json={"result": {"value": True}})
        db_token = Token.query.filter(Token.serial == "s1").first()
        token = RemoteTokenClass(db_token)
        self.assertEqual(token.check_otp("123456"), 1)

    def test_check_otp_for_real(self):
        db_token = Token.query.filter(Token.serial == "s1").first()
        token = RemoteTokenClass(db_token)
        self.assertEqual(token.check_otp("123456"), 1)  # expect: RES301
