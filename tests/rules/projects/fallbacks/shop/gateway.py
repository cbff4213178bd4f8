import requests

URL = "https://pay.example/charges"


class Gateway:
    def __init__(self, session=None):
        self.session = session or requests.Session()

    def charge(self, amount):
        return self.session.post(URL, json={"amount": amount}, timeout=10)


class Refunds:
    def __init__(self, http=None):
        self.http = http if http is not None else requests.Session()

    def refund(self, charge_id):
        return self.http.post(f"{URL}/{charge_id}/refund")  # expect: RES101
