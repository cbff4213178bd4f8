from search.engine import send_query, send_query_with, submit


def lookup(name):
    return send_query(f"SELECT ?item WHERE {{ ?item rdfs:label '{name}' }}")


def report(form):
    return submit(form)


def lookup_with_headers(name):
    return send_query_with(name, headers={"Accept": "application/json"})


def lookup_by_post(name):
    return send_query_with(name, method="POST", headers={"Accept": "application/json"})  # expect: RES201
