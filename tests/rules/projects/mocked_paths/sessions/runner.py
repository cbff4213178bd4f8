from sessions.http import requests_session


class Runner:
    def get_response(self, url, auth=None, http_method="get", **kwargs):
        response = requests_session.request(http_method, url, auth=auth, **kwargs)
        response.raise_for_status()
        return response
