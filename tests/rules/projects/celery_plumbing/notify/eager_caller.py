# select: RES301
from django.db import transaction

from notify.eager import ping


def run_from_elsewhere(event):
    with transaction.atomic():
        ping.run(event)  # expect: RES301 "`run` -> `requests.post`"
