import urllib3

# the catalogue's pool retries by itself; the ingest pool does not
catalog_pool = urllib3.PoolManager(timeout=5, retries=urllib3.Retry(total=3, backoff_factor=0.5, backoff_jitter=0.5))
ingest_pool = urllib3.PoolManager(timeout=5, retries=False)


def post_document(doc):
    return ingest_pool.request("PUT", "https://ingest.example/docs", json=doc)


def fetch_page(kind, page):
    return catalog_pool.request("GET", f"https://catalog.example/{kind}?page={page}")
