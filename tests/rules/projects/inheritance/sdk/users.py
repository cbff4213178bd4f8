from sdk.base import BaseClient


class UsersClient(BaseClient):
    def __init__(self, base_url, token):
        super().__init__(base_url)
        self.token = token

    def get(self, user_id):
        return self.session.get(f"{self.base_url}/users/{user_id}")  # expect: RES101

    def update(self, user_id, data):
        return self.session.patch(f"{self.base_url}/users/{user_id}", json=data, timeout=self.timeout)

    def track(self, name):
        return self.events.post(f"{self.base_url}/events", json={"name": name})  # expect: RES101
