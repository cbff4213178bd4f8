# select: RES301
# Run with PYTHONPATH=src/common/lib (as the project's tox or Docker set-up puts it): the
# module is imported by its bare name, the one module of the project that ends so.
from django.db import transaction

import helpers
import storageService as storage_service


def store(uuid, path):
    storage_service.create_file(uuid, path)


def call(jobs):
    with transaction.atomic():
        for job in jobs:
            store(job.uuid, job.path)  # expect: RES301 "`call` -> `store` -> `create_file` -> `requests.post`"


def check(jobs, url):
    with transaction.atomic():
        for job in jobs:
            helpers.ping(url)  # two modules end in `helpers`: which one runs is not known
