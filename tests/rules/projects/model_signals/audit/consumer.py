# select: RES301
from django.db import transaction

from audit.events import cache_cleared, document_consumed, document_updated, note_submitted
from audit.models import Note


def consume(text):
    with transaction.atomic():
        note = Note.objects.create(text=text)
        # the receivers connected in AuditConfig.ready() run here, inside the transaction
        document_consumed.send(sender=None, document=note)  # expect: RES301 "`send` -> `run_consumed_workflows`"
        return note


def update(note):
    with transaction.atomic():
        note.save()
        document_updated.send_robust(sender=None, document=note)  # expect: RES301 "`run_updated_workflows`"


def clear():
    with transaction.atomic():
        cache_cleared.send(sender=None)  # its receiver does nothing outside the process


def submit(note):
    with transaction.atomic():
        note.save()
        note_submitted.send(sender=Note, note=note)  # expect: RES301 "`Notifier.__call__`"
