from engines.network import post, send

TOKEN_URL = "https://login.example.com/oauth2/token"


def authenticate(client_id, secret):
    # an OAuth token request: sent again, it mints another token and repeats no effect
    body = {"grant_type": "client_credentials", "client_id": client_id, "client_secret": secret}
    return post(TOKEN_URL, body).json()["access_token"]


def refresh(token):
    return send("post", TOKEN_URL, json={"grant_type": "refresh_token", "refresh_token": token}).json()


def create_vm(name):
    return post("https://management.example.com/vms", {"name": name})  # expect: RES201
