import backoff
from backoff import expo


def ratelimit_backoff(exceptions, giveup=lambda e: False):
    return backoff.on_exception(expo, exceptions, max_tries=5, giveup=giveup, factor=2)
