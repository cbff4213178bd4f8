from store.targets import RebindingTarget, RedisTarget


def default_target(host):
    return RedisTarget(host, 6379, 0)  # expect: RES102 "the default `socket_timeout=None` of `RedisTarget`"


def bounded_target(host):
    return RedisTarget(host, 6379, 0, socket_timeout=5)


def rebinding_target(host):
    return RebindingTarget(host)
