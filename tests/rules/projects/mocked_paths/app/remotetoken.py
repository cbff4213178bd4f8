import requests


class RemoteTokenClass:
    def __init__(self, db_token):
        self.token = db_token

    def check_otp(self, otpval):
        r = requests.post("http://remote.example/validate/check",
                          data={"serial": self.token.serial, "pass": otpval}, timeout=10)
        return 1 if r.json()["result"]["value"] else -1
