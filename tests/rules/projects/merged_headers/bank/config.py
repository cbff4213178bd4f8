import uuid

BASE_HEADERS = {"Accept": "application/json"}
TOKEN = "secret"


def partner_headers(extra=None):
    """Every call's headers; callers merge their own on top."""
    headers = dict(BASE_HEADERS)
    headers["Authorization"] = f"Bearer {TOKEN}"
    if extra:
        headers.update(extra)
    return headers


def new_key(prefix):
    return f"{prefix}-{uuid.uuid4()}"
