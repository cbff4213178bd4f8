from django.db import transaction

from app.events import EventWrapper

EVENTS = EventWrapper("https://events.example.com")


def start(order):
    with transaction.atomic():
        order.save()
        EVENTS.track_event_async({"id": order.id})
        EVENTS.track_event_pooled({"id": order.id})
        EVENTS.track_event_maybe_now({"id": order.id})
        EVENTS.track_event_when_asked({"id": order.id}, run_now=True)  # expect: RES301
        EVENTS.track_event_logged({"id": order.id})  # expect: RES301
