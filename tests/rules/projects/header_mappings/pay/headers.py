import uuid

DEFAULT_HEADERS = {"User-Agent": "shop/1.0", "Accept": "application/json"}


def auth_headers(token):
    return {"Authorization": f"Bearer {token}", **DEFAULT_HEADERS}


def keyed_headers(token, key):
    headers = auth_headers(token)
    headers["Idempotency-Key"] = key
    return headers


def fresh_key_headers(token):
    return {**auth_headers(token), "Idempotency-Key": str(uuid.uuid4())}


def new_key():
    return str(uuid.uuid4())
