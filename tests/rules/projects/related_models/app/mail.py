from django.core.mail import EmailMultiAlternatives

from app.models import WorkflowState


def send_mail(subject, message, recipient_list, from_email=None, **kwargs):
    mail = EmailMultiAlternatives(subject, message, from_email, recipient_list)
    return mail.send()


class Notifier:
    def __call__(self, instance=None, **kwargs):
        return send_mail("approved", "text", [instance.requested_by.email])


workflow_approval_email_notifier = Notifier()
