from app.mail import workflow_approval_email_notifier
from app.models import WorkflowState
from app.signals import workflow_approved


def register_signal_handlers():
    workflow_approved.connect(workflow_approval_email_notifier, sender=WorkflowState)
