import random
import time

import boto3
from botocore.exceptions import ClientError

from app.retrying import Retry


class AWSConnection:
    def __init__(self):
        self._retry = Retry(max_tries=-1, retry_exceptions=ClientError)

    def retry(self, *args, **kwargs):
        # the object's copy, called with whatever this method is given
        return self._retry.copy()(*args, **kwargs)

    def _tag_ec2(self, conn, role):
        instance = conn.Instance("i-123")
        instance.create_tags(Tags=[{"Key": "Role", "Value": role}])

    def on_role_change(self, role):
        conn = boto3.resource("ec2", region_name="eu-west-1")
        self.retry(self._tag_ec2, conn, role)
        return True


def keep_tagging():
    # around a function that uses the retrying object: the two loops, and below them what this
    # path hands the object
    connection = AWSConnection()
    while True:
        try:
            return connection.on_role_change("primary")  # expect: RES204 "`on_role_change` -> `retry` -> `Retry.__call__`: a hand-written retry loop with no attempt limit (app/cloud.py:32) x a hand-written retry loop (attempts unknown) (app/retrying.py:24) x boto3 resource retries (app/cloud.py:23)"
        except ClientError:
            time.sleep(random.uniform(1, 5))
