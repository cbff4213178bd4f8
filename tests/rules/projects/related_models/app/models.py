# select: RES301
from django.db import models, transaction

from app.signals import workflow_approved


class WorkflowState(models.Model):
    status = models.CharField(max_length=50)

    def update(self, user=None):
        # wagtail: no next task -> self.finish(user=user)
        self.finish(user=user)

    @transaction.atomic
    def finish(self, user=None):
        self.status = "approved"
        self.save()
        workflow_approved.send(sender=self.__class__, instance=self, user=user)  # expect: RES301 "`WorkflowState.finish` -> `send`"


class TaskState(models.Model):
    workflow_state = models.ForeignKey(
        "WorkflowState", on_delete=models.CASCADE, related_name="task_states"
    )
    status = models.CharField(max_length=50)

    @transaction.atomic
    def approve(self, user=None, update=True, comment=""):
        self.status = "approved"
        self.save()
        if update:
            self.workflow_state.update(user=user)  # expect: RES301 "`TaskState.approve` -> `WorkflowState.update`"
        return self
