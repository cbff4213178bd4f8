import tenacity

from carriers.clients import Booking, LiveTracking, Tracking

retry = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random_exponential(max=5), reraise=True)


@retry
def cancel(booking_id):
    # the base class's _call on Booking's session: no retrying adapter under this loop
    return Booking().cancel(booking_id)


@retry
def track(number):
    return Tracking().status(number)  # expect: RES204 "tenacity 3 attempts (carriers/tasks.py:14) x urllib3 Retry total=3 (carriers/http.py:18) = up to 12 calls"


@retry
def follow(number):
    client = LiveTracking()
    return client.latest(number)  # expect: RES204 "x urllib3 Retry total=3"


@retry
def lookup(path):
    return Booking().get(path)


booking = Booking()
tracking = Tracking()


@retry
def cancel_later(booking_id):
    # an object of the class made elsewhere: every Booking is made without a session
    return booking.cancel(booking_id)


@retry
def track_later(number):
    return tracking.status(number)  # expect: RES204 "x urllib3 Retry total=3"
