"""RES2xx: retries, backoff and jitter."""
