# select: RES201
import json
import uuid

from app.session import ResilientSession


class Client:
    def __init__(self, server):
        self.server = server
        self._session = ResilientSession()

    def create_issue(self, fields):
        r = self._session.post(self.server + "/rest/api/2/issue", data=json.dumps({"fields": fields}))  # expect: RES201 "`post` sends a POST"
        return r.json()

    def create_keyed(self, fields):
        key = str(uuid.uuid4())
        r = self._session.post(self.server + "/rest/api/2/issue", json=fields, headers={"Idempotency-Key": key})
        return r.json()

    def issue(self, key):
        return self._session.get(f"{self.server}/rest/api/2/issue/{key}").json()
