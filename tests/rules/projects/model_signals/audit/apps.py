from django.apps import AppConfig
from django.db.models.signals import post_save


class AuditConfig(AppConfig):
    name = "audit"

    def ready(self):
        from audit.events import document_consumed
        from audit.workflows import run_consumed_workflows

        document_consumed.connect(run_consumed_workflows)
        # the receiver by keyword, the sender by its model's name
        from audit.dns import address_saved, subnet_saved
        from audit.models import Subnet

        post_save.connect(receiver=address_saved, sender=self.get_model("Address"))
        post_save.connect(subnet_saved, sender=Subnet)
