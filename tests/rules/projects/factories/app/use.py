import httpx
import tenacity

from app.http import Client, build


def a(url):
    return build().get(url)  # expect: RES101


def b(path):
    return Client.from_env().http.get(path)  # expect: RES101


def c(url, fast):
    client = httpx.Client(timeout=None) if fast else build()  # expect: RES102
    return client.get(url)  # expect: RES101


@tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1), reraise=True)
def upload(key, body):
    return Client.from_env().files.put_object(Bucket="b", Key=key, Body=body)  # expect: RES204 "botocore client retries"
