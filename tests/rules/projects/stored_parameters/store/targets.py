import redis


class RedisTarget:
    def __init__(self, host, port, db, socket_timeout=None):
        self.socket_timeout = socket_timeout
        self.client = redis.StrictRedis(host=host, port=port, db=db, socket_timeout=self.socket_timeout)


class RebindingTarget:
    """The attribute is set again elsewhere in the class: what the call reads is not the parameter."""

    def __init__(self, host, socket_timeout=None):
        self.socket_timeout = socket_timeout
        self.client = redis.StrictRedis(host=host, socket_timeout=self.socket_timeout)

    def tighten(self):
        self.socket_timeout = 5
