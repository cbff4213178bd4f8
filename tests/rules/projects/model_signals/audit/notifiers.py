from django.core.mail import EmailMessage

from audit.events import note_submitted


class Notifier:
    """A receiver object: calling it sends what a subclass's mixin sends."""

    def __call__(self, sender, note=None, **kwargs):
        return self.send_notifications(note)

    def send_notifications(self, note):
        raise NotImplementedError


class EmailNotificationMixin:
    def send_notifications(self, note):
        return EmailMessage("Submitted", note.text, to=["reviewers@example.com"]).send()


class SubmissionEmailNotifier(EmailNotificationMixin, Notifier):
    pass


submission_notifier = SubmissionEmailNotifier()
# an object as the receiver: its class's __call__ runs, through a mixin's method
note_submitted.connect(submission_notifier)
