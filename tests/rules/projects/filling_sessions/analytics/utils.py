# The session subclass fills in its own timeout only when the caller passes none: a timeout
# the caller gives is the one sent (kolibri's NetworkClient).
import json

from network.client import NetworkClient

DEFAULT_SERVER_URL = "https://telemetry.learningequality.org"


def perform_ping(jsondata, server=DEFAULT_SERVER_URL):
    client = NetworkClient(server)
    url = "/api/v1/pingback"
    response = client.post(url, data=jsondata, timeout=60)  # expect: RES105 "may wait 60 s, above max-timeout (30 s) (passed through `NetworkClient.post`)"
    return json.loads(response.content.decode() or "{}")


def perform_check(server=DEFAULT_SERVER_URL):
    return NetworkClient(server).get("/api/v1/status")  # the client's own (5, 20): bounded, no finding


def perform_export(url):
    from network.plain import PlainClient

    return PlainClient().upload(url, timeout=90)  # expect: RES105 "may wait 90 s, above max-timeout (30 s) (passed through `PlainClient.upload`)"
