import boto3
from botocore.config import Config

from mailer.utils import decrypt


def start(config):
    # AWS entry point: the queue_url is an SQS url, so decrypt() takes the kms branch
    session = boto3.Session()
    return decrypt(config, session, "smtp_password")
