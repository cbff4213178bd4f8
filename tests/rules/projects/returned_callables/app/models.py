from django.db import models


class TableWebhook(models.Model):
    failed_triggers = models.IntegerField(default=0)
    payload = models.JSONField(null=True)
