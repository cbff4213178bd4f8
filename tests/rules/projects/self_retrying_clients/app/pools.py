import urllib3

TIMEOUT = urllib3.Timeout(connect=2.0, read=10.0)

retrying = urllib3.PoolManager(retries=urllib3.Retry(total=4, connect=2, backoff_factor=0.2, backoff_jitter=0.2), timeout=TIMEOUT)
bare = urllib3.PoolManager(timeout=TIMEOUT)
single = urllib3.PoolManager(retries=False, timeout=TIMEOUT)
counted = urllib3.PoolManager(retries=2, timeout=TIMEOUT)
origin = urllib3.HTTPConnectionPool("origin.internal", port=8080, retries=urllib3.Retry(3), timeout=TIMEOUT)
