# select: RES204
from elasticsearch import Elasticsearch


class SearchClient(Elasticsearch):
    """Adds helpers and configures its base itself, with the transport's default retries."""

    def __init__(self, conf):
        super().__init__(host=conf["host"], port=conf["port"], timeout=conf["timeout"])
        self._version = None

    def index_name(self, kind):
        return f"app_{kind}"


class QuietSearchClient(Elasticsearch):
    """The transport's retries switched off: one attempt per request."""

    def __init__(self, conf):
        super().__init__(host=conf["host"], timeout=conf["timeout"], max_retries=0)


class ForwardingSearchClient(Elasticsearch):
    """What it is made with decides its retries: judged where it is made."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
