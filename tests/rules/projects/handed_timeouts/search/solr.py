import httpx

DEFAULT_SOLR_TIMEOUT_SECONDS = 10


class Solr:
    def __init__(self, base_url):
        self.base_url = base_url
        self.session = httpx.AsyncClient()

    async def raw_request(self, path, payload, _timeout=DEFAULT_SOLR_TIMEOUT_SECONDS):
        # a wrapper's own name for the client's timeout
        return await self.session.get(f"{self.base_url}/{path}?{payload}", timeout=_timeout)


solr = Solr("http://solr:8983/solr")


async def execute_query(path, payload, _timeout=DEFAULT_SOLR_TIMEOUT_SECONDS):
    # and a second wrapper handing its own parameter on to the first
    return await solr.raw_request(path, payload, _timeout=_timeout)


async def execute_query_bounded(path, payload, _timeout=None):
    # its parameter is not what it hands on
    return await solr.raw_request(path, payload, _timeout=5)


from asgiref.sync import async_to_sync

# a library wrapper that calls the function it is given with the arguments it gets
execute_query_sync = async_to_sync(execute_query)
