import redis
from jira import JIRA

from app.broker import RedisBroker, make_client


def test_default_broker():
    # redis-py's default host is localhost: the server the test run starts
    broker = RedisBroker()
    assert broker.client.ping()


def test_plain_client():
    assert redis.Redis().ping()


def test_client_class_from_a_factory():
    assert make_client()().ping()


def test_jira_default_server():
    # jira's default server is http://localhost:2990/jira
    assert JIRA(token_auth="token").myself()


def test_remote_broker(settings):
    broker = RedisBroker(host=settings.REDIS_HOST)  # expect: RES101
    assert broker.client.ping()


def test_remote_client(settings):
    assert redis.Redis(settings.REDIS_HOST).ping()  # expect: RES101


def test_unix_socket_pool():
    # a unix socket is this machine's
    pool = redis.ConnectionPool(connection_class=redis.UnixDomainSocketConnection, path="/tmp/redis.sock")
    assert redis.Redis(connection_pool=pool).ping()


def test_mapping_without_host(ssl=False):
    connection_kwargs = {"db": 5}
    if ssl:
        connection_kwargs["ssl"] = True
    assert redis.Redis(**connection_kwargs).ping()


def test_mapping_with_host(settings):
    connection_kwargs = {"host": settings.REDIS_HOST}
    assert redis.Redis(**connection_kwargs).ping()  # expect: RES101
