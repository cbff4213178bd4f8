from jobs.client import create, read
from jobs.policies import api_retrying, run_later


def push(orders):
    for order in orders:
        for attempt in api_retrying:
            with attempt:
                create(order)  # expect: RES201, RES204 "tenacity 4 attempts (jobs/policies.py:6) x urllib3 Retry total=2"


def push_one(order):
    return api_retrying(create, order)  # expect: RES201, RES204


def pull(order_id):
    return run_later(read, order_id)


def push_later(order):
    return run_later(create, order)
