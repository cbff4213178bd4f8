import urllib3
from google.api_core import exceptions as gexc
from google.api_core.retry import Retry, if_transient_error
from google.cloud import storage
from minio import Minio
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential

GCS_RETRY = Retry(initial=0.5, maximum=10.0, multiplier=2.0, timeout=60.0, predicate=if_transient_error)
TIMEOUT = urllib3.Timeout(connect=2.0, read=20.0)

objects = Minio("minio:9000", access_key="a", secret_key="s")
tuned = Minio("minio:9000", access_key="a", secret_key="s", http_client=urllib3.PoolManager(timeout=TIMEOUT, retries=urllib3.Retry(total=1)))
single = Minio("minio:9000", access_key="a", secret_key="s", http_client=urllib3.PoolManager(timeout=TIMEOUT, retries=False))

gcs_retry = retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=5), retry=retry_if_exception_type(gexc.GoogleAPIError), reraise=True)
s3_retry = retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=5), retry=retry_if_exception_type(urllib3.exceptions.HTTPError), reraise=True)


@gcs_retry
def upload_report(bucket, path, name):
    blob = storage.Client().bucket(bucket).blob(name)
    blob.upload_from_filename(path, retry=GCS_RETRY, timeout=30)  # expect: RES204 "x google-api-core Retry (for up to 60 s) (app/storage.py:8) = an unknown number of calls"


@gcs_retry
def download_report(bucket, name, path):
    blob = storage.Client().bucket(bucket).blob(name)
    blob.download_to_filename(path, retry=None, timeout=30)


@gcs_retry
def copy_report(blob, path):
    blob.upload_from_filename(path, retry=GCS_RETRY.with_deadline(30), timeout=30)  # expect: RES204 "google-api-core Retry (for up to 30 s)"


@s3_retry
def put(name, data, size):
    return objects.put_object("reports", name, data, size)  # expect: RES204 "x Minio's default urllib3 Retry total=5 (app/storage.py:11) = up to 18 calls"


@s3_retry
def put_tuned(name, data, size):
    return tuned.put_object("reports", name, data, size)  # expect: RES204 "x urllib3 Retry total=1 (app/storage.py:12) = up to 6 calls"


@s3_retry
def put_once(name, data, size):
    return single.put_object("reports", name, data, size)


@s3_retry
def share(name):
    return objects.presigned_get_object("reports", name)


@gcs_retry
def put_beside(name, data, size):
    """The retry is for google's errors: Minio's (urllib3's) are not retried, so nothing multiplies."""
    return objects.put_object("reports", name, data, size)
