# select: RES105,RES301
class Conf:
    PREFIX = "default"
    SQS = {"aws_region": "us-east-1"}
    ORM = None
    HAS_REPLICA = False
