"""Decorators that hand the function a client it does not make itself."""
from functools import wraps

import boto3
import requests
from botocore.config import Config

RETRYING = Config(retries={"max_attempts": 8, "mode": "standard"}, connect_timeout=3, read_timeout=10)
ONCE = Config(retries={"total_max_attempts": 1}, connect_timeout=3, read_timeout=10)


def assumed_client(service):
    def decorator(function):
        @wraps(function)
        def wrapper(*args, **kwargs):
            session = boto3.Session(region_name=kwargs.pop("region", "eu-west-1"))
            kwargs["client"] = session.client(service, config=RETRYING)
            return function(*args, **kwargs)

        return wrapper

    return decorator


def single_attempt_client(service):
    def decorator(function):
        @wraps(function)
        def wrapper(*args, **kwargs):
            kwargs["client"] = boto3.client(service, config=ONCE)
            return function(*args, **kwargs)

        return wrapper

    return decorator


def with_session(function):
    @wraps(function)
    def wrapper(*args, **kwargs):
        kwargs.setdefault("http", requests.Session())
        return function(*args, **kwargs)

    return wrapper
