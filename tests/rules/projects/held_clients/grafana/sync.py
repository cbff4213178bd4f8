import requests

from grafana.client import APIClient
from grafana.settings import GRAFANA_TIMEOUT


class GrafanaAPIClient(APIClient):
    def get_users(self):
        return self.api_get("api/org/users")  # expect: RES101 "`requests.get` is called through `APIClient.api_get` without a timeout"

    def sync(self):
        return self.api_post("api/plugins/sync")  # expect: RES101 "`requests.post` is called through `APIClient.api_post`"

    def list_users(self, **kwargs):
        return self.api_get("api/users", **kwargs)

    def health(self):
        return self.api_get("api/health", timeout=GRAFANA_TIMEOUT)

    def echo(self):
        return self.api_local("api/echo")

    def delete_token(self, token_id):
        return self.call_api(f"api/auth/keys/{token_id}", requests.delete)  # expect: RES101 "`requests.delete` is called through `APIClient.call_api`"

    def delete_user(self, user_id):
        return self.call_api(f"api/users/{user_id}", requests.delete, timeout=GRAFANA_TIMEOUT)
