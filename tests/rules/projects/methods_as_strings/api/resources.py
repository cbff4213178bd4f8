import uuid


class Resource:
    def __init__(self, client):
        self._client = client


class Customers(Resource):
    def create(self, **params):
        return self._client._retrying_request("POST", "/customers", json=params)  # expect: RES201 "through `_request`"

    def update(self, customer_id, **params):
        return self._client._retrying_request("PATCH", f"/customers/{customer_id}", json=params)  # expect: RES201

    def retrieve(self, customer_id):
        return self._client._retrying_request("GET", f"/customers/{customer_id}")


class Invoices(Resource):
    def create(self, idempotency_key=None, **params):
        # one key for every attempt, passed in the headers through ``**kwargs``
        key = idempotency_key or str(uuid.uuid4())
        return self._client._retrying_request("POST", "/invoices", json=params, headers={"Idempotency-Key": key})

    def finalize(self, invoice_id):
        # no retry on the way
        return self._client._request("POST", f"/invoices/{invoice_id}/finalize")
