from flask import url_for


def api_url_for(api_server, endpoint, **kwargs):
    # a route of the application the test run serves (its SERVER_NAME: the test server)
    with api_server.flask_app.app_context():
        return url_for(f"v1_resources.{endpoint}", **kwargs)


def partner_url(path):
    return "https://partner.example.org/" + path
