# select: RES105,RES301
from boto3 import Session

from dq.brokers import Broker
from dq.conf import Conf


class Sqs(Broker):
    def __init__(self, list_key: str = Conf.PREFIX):
        self.sqs = None
        super(Sqs, self).__init__(list_key)
        self.queue = self.get_queue()

    def enqueue(self, task):
        return self.queue.send_message(MessageBody=task).get("MessageId")

    @staticmethod
    def get_connection(list_key: str = Conf.PREFIX) -> Session:
        config = Conf.SQS
        return Session(**config)

    def get_queue(self):
        # the base's __init__ sets the connection from this class's override (django-q's SQS broker)
        self.sqs = self.connection.resource("sqs")  # expect: RES105 "`boto3.Session.resource` is called without a timeout"
        return self.sqs.get_queue_by_name(QueueName=self.list_key)
