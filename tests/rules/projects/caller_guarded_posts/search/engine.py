from search.net import get, post

URL = "https://query.example/sparql"


def send_query(query, method="GET"):
    if method == "GET":
        return get(URL, params={"query": query})
    # no caller in the project asks for the POST: the branch never runs
    return post(URL, data={"query": query})


def submit(form, method="POST"):
    if method == "GET":
        return get(URL, params=form)
    return post(URL, data=form)  # expect: RES201


def send_query_with(query, method="GET", **kwargs):
    # the headers come from the caller's ``**kwargs``: the finding would go to the caller,
    # which still never takes the POST branch
    if method == "GET":
        return get(URL, params={"query": query}, **kwargs)
    return post(URL, data={"query": query}, **kwargs)
