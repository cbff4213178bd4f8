from search import ForwardingSearchClient, QuietSearchClient, SearchClient


def search_client(conf):
    return SearchClient(conf)


def quiet_client(conf):
    return QuietSearchClient(conf)


def forwarding_client(conf):
    return ForwardingSearchClient(**conf)
