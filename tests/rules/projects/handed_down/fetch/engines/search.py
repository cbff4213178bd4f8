from fetch.api import get, post

KEYED = {"Idempotency-Key": "search-token-v1"}


def token():
    return post("https://example.test/token")  # expect: RES201 "`post` sends a POST (`httpx.AsyncClient.request`) through `request` -> `request` -> `call_client`"


def token_keyed():
    return post("https://example.test/token", headers=KEYED)


def results(query):
    return get("https://example.test/search", params={"q": query}, timeout=3)  # expect: RES103 "`httpx.AsyncClient.request` has a hard-coded timeout `3`"
