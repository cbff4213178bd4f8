from django.core.mail import EmailMessage
from django.dispatch import receiver

from audit.events import cache_cleared, document_updated


def run_consumed_workflows(sender, document, **kwargs):
    EmailMessage("Consumed", document.title, to=["ops@example.com"]).send()


@receiver(document_updated)
def run_updated_workflows(sender, document, **kwargs):
    EmailMessage("Updated", document.title, to=["ops@example.com"]).send()


@receiver(cache_cleared)
def forget(sender, **kwargs):
    kwargs.clear()
