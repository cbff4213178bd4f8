from boto3.s3.transfer import S3Transfer

from files import aws
from files.aws import SIGNER, UPLOADER, Storage, transfer_client


def download_link(key):
    return SIGNER.generate_presigned_url("get_object", Params={"Key": key})


def upload(key, body):
    UPLOADER.put_object(Bucket="b", Key=key, Body=body)
    return aws.SHARED.generate_presigned_url("get_object")


def sign_with(client, key):
    return client.generate_presigned_url("get_object", Params={"Key": key})


def shared(key):
    sign_with(aws.SHARED, key)
    return sign_with(aws.presign_client(), key)


def check(key):
    return aws.SHARED.head_object(Bucket="b", Key=key)


def copy(storage: Storage, key):
    storage.client.copy_object(Bucket="b", Key=key, CopySource="a")
    return Storage().link(key)


def bulk(path, key):
    S3Transfer(transfer_client()).upload_file(path, "b", key)
