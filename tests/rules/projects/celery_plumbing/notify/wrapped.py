# select: RES201, RES204
import boto3
import requests
from celery import Celery, Task
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential

app = Celery("wrapped")
ses = boto3.client("ses")


class RequestsTask(Task):
    autoretry_for = (requests.ConnectionError, requests.Timeout)
    retry_backoff = True
    max_retries = 4


@retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=5), retry=retry_if_exception_type(requests.RequestException))
def create_label(order_id):
    return requests.post("https://ship.example/labels", json={"order": order_id}, timeout=5)  # expect: RES201


@app.task(bind=True, autoretry_for=(requests.RequestException,), retry_backoff=True, max_retries=5)
def ship_order(self, order_id):
    # once spent, the tenacity retry raises RetryError, which the task does not retry
    return create_label(order_id)


@app.task(base=RequestsTask, bind=True)
def send_receipt(self, to):
    # the task retries requests' errors; botocore's retries end in botocore's own
    return ses.send_email(Destination={"ToAddresses": [to]}, Message={}, Source="shop@example.com")
