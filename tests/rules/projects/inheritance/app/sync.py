import tenacity

from sdk.users import UsersClient

client = UsersClient("https://api.example", "token")


@tenacity.retry(stop=tenacity.stop_after_attempt(4), wait=tenacity.wait_random(0, 1), reraise=True)
def sync_user(user_id):
    return client.get(user_id)  # expect: RES204 "tenacity 4 attempts (app/sync.py:8) x urllib3 Retry total=3 (sdk/base.py:13) = up to 16 calls"


@tenacity.retry(stop=tenacity.stop_after_attempt(4), wait=tenacity.wait_random(0, 1), reraise=True)
def track_login():
    return client.track("login")  # expect: RES201
