from pkg.https import Backend


def version(host):
    backend = Backend(host)
    session = backend.get_session()
    return session.request("GET", backend.base_url + "/version")
