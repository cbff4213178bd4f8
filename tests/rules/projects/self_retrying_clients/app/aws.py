import boto3
import tenacity
from botocore.config import Config

SINGLE_SHOT = Config(connect_timeout=2, read_timeout=10, retries={"total_max_attempts": 1})
NO_RETRIES = Config(connect_timeout=2, read_timeout=10, retries={"max_attempts": 0, "mode": "legacy"})
FEW_RETRIES = Config(connect_timeout=2, read_timeout=10, retries=dict(max_attempts=2))
THREE_ATTEMPTS = Config(connect_timeout=2, read_timeout=10, retries={"total_max_attempts": 3, "max_attempts": 9})
STANDARD = Config(connect_timeout=2, read_timeout=10, retries={"mode": "standard"})

single_shot = boto3.client("s3", config=SINGLE_SHOT)
no_retries = boto3.client("glacier", config=NO_RETRIES)
few_retries = boto3.client("sqs", config=FEW_RETRIES)
three_attempts = boto3.client("sns", config=THREE_ATTEMPTS)
standard = boto3.client("dynamodb", config=STANDARD)
tables = boto3.resource("dynamodb", config=FEW_RETRIES)

retry = tenacity.retry(stop=tenacity.stop_after_attempt(4), wait=tenacity.wait_random(0, 1), reraise=True)


@retry
def head(key):
    return single_shot.head_object(Bucket="b", Key=key)


@retry
def archive(vault, body):
    return no_retries.upload_archive(vaultName=vault, body=body)


@retry
def enqueue(url, body):
    return few_retries.send_message(QueueUrl=url, MessageBody=body)  # expect: RES204 "tenacity 4 attempts (app/aws.py:31) x botocore client retries (max_attempts=2 retries) (app/aws.py:13) = up to 12 calls"


@retry
def publish(topic, body):
    return three_attempts.publish(TopicArn=topic, Message=body)  # expect: RES204 "x botocore client retries (total_max_attempts=3) (app/aws.py:14) = up to 12 calls"


@retry
def remember(item):
    return standard.put_item(TableName="t", Item=item)  # expect: RES204 "an unknown number of calls per operation (botocore client retries: the count is not in the code)"


@retry
def save(item):
    return tables.Table("t").put_item(Item=item)  # expect: RES204 "x boto3 resource retries (max_attempts=2 retries) (app/aws.py:16) = up to 12 calls"
