# select: RES102, RES103
from lib import BufferedConsumer


def do_sending(queue):
    consumer = BufferedConsumer()  # expect: RES102 "the default `request_timeout=None` of `BufferedConsumer`"
    payload = queue.get()
    while payload is not None:
        consumer.send(payload)
        payload = queue.get()
    consumer.flush()


def bounded_by_position(timeout):
    return BufferedConsumer(50, None, timeout).send("x")


def bounded_by_keyword(settings):
    return BufferedConsumer(request_timeout=settings.TRACK_TIMEOUT).send("x")
