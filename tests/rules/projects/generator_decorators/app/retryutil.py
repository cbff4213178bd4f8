# select: RES204
import backoff
import botocore.exceptions


def handle_regions(func):
    @backoff.on_exception(backoff.expo, botocore.exceptions.ClientError, max_tries=3)
    def inner(*args, **kwargs):
        return func(*args, **kwargs)

    return inner
