import httpx

DEFAULT_TIMEOUT = httpx.Timeout(20, connect=5.0)
