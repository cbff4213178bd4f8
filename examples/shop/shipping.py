"""Parcel status for the order page: retried here, and again by the carrier's session."""

from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential

from shop import carrier


@retry(
    stop=stop_after_attempt(3),
    wait=wait_random_exponential(max=2),
    retry=retry_if_exception_type(ConnectionError),
)
def parcel_status(parcel_id):
    return carrier.track(parcel_id)["status"]
