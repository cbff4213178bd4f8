"""A backup API client: a decorator factory retries the exceptions its application names,
around requests on a urllib3 pool that retries by itself (3 times by default)."""
import json
import time

import urllib3

from app import settings


def retry(exceptions):
    def decorator(func):
        def inner(instance, *args, **kwargs):
            attempt = 1
            while attempt <= 3:
                try:
                    return func(instance, *args, **kwargs)
                except exceptions:
                    attempt += 1
                time.sleep(instance.retry_wait)
            raise RuntimeError("retries exceeded")
        return inner
    return decorator


class BackupApi:
    retry_wait = 2

    def __init__(self):
        self.http = urllib3.PoolManager(timeout=urllib3.Timeout(connect=1, read=settings.BACKUP_READ_TIMEOUT))

    def _get(self, path):
        return json.loads(self.http.request("GET", settings.BACKUP_URL + path).data)

    @retry(KeyError)
    def operation_status(self, operation):
        # retried while the answer lacks the status: the pool's last MaxRetryError leaves at once
        return self._get(f"operations/{operation}")["status"]

    @retry(urllib3.exceptions.HTTPError)
    def server_status(self, server):
        return self._get(f"servers/{server}")["status"]  # expect: RES204 "x urllib3 default retries=3"
