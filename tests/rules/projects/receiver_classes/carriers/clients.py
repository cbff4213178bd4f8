from carriers.base import Carrier
from carriers.http import retrying_session


class Booking(Carrier):
    """Runs Carrier.__init__: the session is the plain one."""

    base_url = "https://book.example"

    def cancel(self, booking_id):
        return self._call("DELETE", f"/bookings/{booking_id}")


class Tracking(Carrier):
    """Read-only: hands the base class the session whose adapter retries."""

    base_url = "https://track.example"

    def __init__(self, session=None):
        super().__init__(session or retrying_session())

    def status(self, number):
        return self.get(f"/track/{number}")


class LiveTracking(Tracking):
    """One level further down: still Tracking's session."""

    def latest(self, number):
        return self.status(number)
