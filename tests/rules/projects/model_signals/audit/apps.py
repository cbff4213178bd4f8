from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"

    def ready(self):
        from audit.events import document_consumed
        from audit.workflows import run_consumed_workflows

        document_consumed.connect(run_consumed_workflows)
