from django.db import transaction

from app.handler import WebhookHandler
from app.models import TableWebhook


def call_webhook(webhook_id, method, url, payload):
    with transaction.atomic():
        webhook = TableWebhook.objects.select_for_update(nowait=True).get(id=webhook_id)
        response = WebhookHandler().make_request(method, url, payload)  # expect: RES301 "`WebhookHandler.make_request` -> `advocate.request`"
        webhook.failed_triggers = 0 if response.ok else webhook.failed_triggers + 1
        webhook.save()


def store_payload(webhook_id, body):
    with transaction.atomic():
        webhook = TableWebhook.objects.select_for_update().get(id=webhook_id)
        webhook.payload = WebhookHandler().parse(body)
        webhook.save()
