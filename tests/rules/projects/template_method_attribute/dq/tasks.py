# select: RES105,RES301
from dq.brokers import get_broker


def async_task(func, *args, **kwargs):
    q_options = kwargs.pop("q_options", {})
    task = {"func": func, "args": args}
    if "broker" in q_options:
        task["broker"] = q_options["broker"]
    # don't serialize the broker
    broker = task.pop("broker", get_broker())
    return broker.enqueue(str(task))
