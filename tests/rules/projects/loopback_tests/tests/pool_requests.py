# select: RES101
# A pool kept in a name whose only uses are requests to this machine: the test run's server.
import urllib3


def test_micro_all():
    with urllib3.PoolManager() as http:
        return http.request("GET", "http://127.0.0.1:9090/micro/all").json()


def test_remote_too():
    with urllib3.PoolManager() as http:  # expect: RES101
        http.request("GET", "http://127.0.0.1:9090/micro/all")
        return http.request("GET", "https://api.example.org/all")


def make_pool():
    http = urllib3.PoolManager()  # expect: RES101
    http.request("GET", "http://127.0.0.1:9090/micro/all")
    return http
