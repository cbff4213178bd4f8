"""An httpx client whose transport retries failed connections, under retries of other failures."""
import httpx
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential

client = httpx.Client(base_url="https://tides.example", timeout=5, transport=httpx.HTTPTransport(retries=2))


@retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=2), retry=retry_if_exception_type(httpx.HTTPStatusError), reraise=True)
def water_levels(station):
    """Only 5xx answers are retried here: the transport's last ConnectError is not."""
    response = client.get("/levels", params={"station": station})
    response.raise_for_status()
    return response.json()


@retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=2), retry=retry_if_exception_type(httpx.TransportError), reraise=True)
def predictions(station):
    response = client.get("/predictions", params={"station": station})  # expect: RES204 "x httpx transport retries=2"
    return response.json()
