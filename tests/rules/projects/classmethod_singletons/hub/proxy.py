# select: RES101
from hub.httpclient import HubHTTPClient


def routes(api_url):
    return HubHTTPClient.loop_instance().fetch(api_url + "/api/routes")  # expect: RES101


def routes_in_time(api_url):
    return HubHTTPClient.loop_instance().fetch(api_url + "/api/routes", timeout=5)
