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
