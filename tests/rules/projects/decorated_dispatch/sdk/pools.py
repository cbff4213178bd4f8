import urllib3

index_pool = urllib3.PoolManager(retries=False, timeout=urllib3.Timeout(connect=2, read=10))
