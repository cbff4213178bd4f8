from celery import shared_task

from hooks.transport import fetch_webhook, handle_webhook_retry, reschedule, send_webhook


@shared_task(bind=True, retry_backoff=10, max_retries=5)
def deliver(self, url, data):
    if not send_webhook(url, data):  # expect: RES201 "`send_webhook` sends a POST"
        handle_webhook_retry(self)  # the task hands itself to a helper that retries it


@shared_task(bind=True, retry_backoff=10, max_retries=5)
def check(self, url):
    if not fetch_webhook(url):
        handle_webhook_retry(self)


@shared_task(bind=True, max_retries=None)
def sync_daily(self, url, data):
    send_webhook(url, data)
    reschedule(self)  # on no condition: the task runs again tomorrow, not a retry
