# select: RES105,RES301
from dq.conf import Conf


class Broker:
    def __init__(self, list_key: str = Conf.PREFIX):
        self.connection = self.get_connection(list_key)
        self.list_key = list_key

    @staticmethod
    def get_connection(list_key: str = Conf.PREFIX):
        return 0


def get_broker(list_key: str = Conf.PREFIX) -> Broker:
    if type(Conf.SQS) == dict:
        from dq.brokers import aws_sqs

        return aws_sqs.Sqs(list_key=list_key)
    return Broker(list_key=list_key)
