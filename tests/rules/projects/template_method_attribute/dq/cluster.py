# select: RES105,RES301
from django import db

import dq.tasks
from dq.brokers import get_broker
from dq.conf import Conf
from dq.models import Schedule


def scheduler(broker=None):
    if not broker:
        broker = get_broker()
    database_to_use = {"using": Conf.ORM} if not Conf.HAS_REPLICA else {}
    with db.transaction.atomic(**database_to_use):
        for s in Schedule.objects.select_for_update().exclude(repeats=0):
            q_options = {}
            scheduled_broker = broker
            try:
                scheduled_broker = get_broker(q_options["broker_name"])  # expect: RES301 "`scheduler` -> `get_broker` -> `Sqs` -> `Sqs.get_queue` -> `boto3.resource.get_queue_by_name`"
            except:  # invalid broker_name or non existing broker with broker_name
                pass
            q_options["broker"] = scheduled_broker
            s.task = dq.tasks.async_task(s.func, q_options=q_options)  # expect: RES301 "`scheduler` -> `async_task` -> `get_broker`"
            s.repeats += -1
            s.save()
