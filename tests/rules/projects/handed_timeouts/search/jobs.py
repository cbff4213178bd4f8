# select: RES102
from search.solr import execute_query, execute_query_bounded, solr


async def export_scores():
    return await solr.raw_request("export", "q=*", _timeout=None)  # expect: RES102 "(passed through `Solr.raw_request`)"


async def trending():
    return await execute_query("select", "q=*", _timeout=None)  # expect: RES102 "(passed through `execute_query`)"


async def trending_default():
    return await execute_query("select", "q=*")


async def trending_bounded():
    return await execute_query_bounded("select", "q=*", _timeout=None)


def trending_sync():
    from search.solr import execute_query_sync

    return execute_query_sync("select", "q=*", _timeout=None)  # expect: RES102 "(passed through `execute_query`)"
