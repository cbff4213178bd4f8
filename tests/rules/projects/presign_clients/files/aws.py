# select: RES105
import functools

import boto3

SIGNER = boto3.client("s3")
UPLOADER = boto3.client("s3")  # expect: RES105 "botocore's default connect and read timeouts"
SHARED = boto3.client("s3")  # expect: RES105
NEVER_USED = boto3.client("s3")  # expect: RES105


@functools.lru_cache(maxsize=None)
def presign_client():
    return boto3.client("s3")


def transfer_client():
    return boto3.client("s3")  # expect: RES105


def share_link(bucket, key):
    return presign_client().generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": key})


class Storage:
    def __init__(self):
        self.signer = boto3.client("s3")
        self.client = boto3.client("s3")  # expect: RES105

    def link(self, key):
        return self.signer.generate_presigned_url("get_object", Params={"Key": key})

    def form(self, key):
        return self.client.generate_presigned_post("b", key)
