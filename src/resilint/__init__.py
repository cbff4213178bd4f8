"""resilint: find and fix outbound-call mistakes (timeouts, retries, backoff, held connections)."""

__version__ = "0.1.0"
