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
    # around a function that uses the retrying object: the two loops, and not what other
    # callers hand that object
    connection = AWSConnection()
    while True:
        try:
            return connection.on_role_change("primary")  # expect: RES204 "`on_role_change` -> `retry` -> `Retry.__call__`: a hand-written retry loop with no attempt limit"
        except ClientError:
            time.sleep(random.uniform(1, 5))
