# select: RES101
# rq's tests: subclasses of the client made with no server connect to this machine's
from redis import Redis


def test_get_redis_version():
    class Redis4(Redis):
        def info(self, *args, **kwargs):
            return {"redis_version": "4.0.8"}

    assert Redis4().info()["redis_version"] == "4.0.8"


def test_remote_version():
    class Remote(Redis):
        pass

    assert Remote(host="redis.example.org").info()  # expect: RES101
