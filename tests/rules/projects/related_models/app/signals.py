from django.dispatch import Signal

workflow_approved = Signal()
