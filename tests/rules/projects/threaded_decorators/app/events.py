import requests

from app.util import in_background, logged, postpone, postpone_unless_asked, postpone_unless_testing


class EventWrapper:
    def __init__(self, url):
        self.url = url

    @postpone
    def track_event_async(self, event):
        self._track_event(event)

    @in_background
    def track_event_pooled(self, event):
        self._track_event(event)

    @postpone_unless_testing
    def track_event_maybe_now(self, event):
        self._track_event(event)

    @postpone_unless_asked
    def track_event_when_asked(self, event):
        self._track_event(event)

    @logged
    def track_event_logged(self, event):
        self._track_event(event)

    def _track_event(self, event):
        requests.post(self.url, json=event, timeout=5)
