# select: RES204
class IndexWriteError(Exception):
    """An Elasticsearch write did not fully succeed."""
