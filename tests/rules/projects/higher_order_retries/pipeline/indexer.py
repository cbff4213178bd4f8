from pipeline import sources
from pipeline.retry import call_with_retries


def push(doc):
    # the first function handed to the helper retries nothing itself
    return call_with_retries(sources.post_document, doc)


def refresh(kind, page):
    return call_with_retries(sources.fetch_page, kind, page)
