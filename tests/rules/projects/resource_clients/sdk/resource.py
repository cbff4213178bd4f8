class Resource:
    def __init__(self, client):
        self._client = client


class Charges(Resource):
    def create(self, amount, idempotency_key=None):
        return self._client.request("POST", "/charges", json={"amount": amount}, idempotency_key=idempotency_key)

    def capture(self, charge_id):
        return self._client.request("POST", f"/charges/{charge_id}/capture")  # expect: RES201
