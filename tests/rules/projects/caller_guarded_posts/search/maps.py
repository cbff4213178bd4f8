from search.engine import send_query, submit


def lookup(name):
    return send_query(f"SELECT ?item WHERE {{ ?item rdfs:label '{name}' }}")


def report(form):
    return submit(form)
