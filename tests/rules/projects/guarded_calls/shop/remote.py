import requests

from shop.status import Status

TIMEOUT = 10
FINAL = (Status.SUCCESSFUL, Status.FAILED)


def create_user(user):
    requests.get("https://edx.example/login", timeout=TIMEOUT)


def queue_create_user(user):
    pass  # stands for create_user_from_id.delay(user.id)


def establish_basket(user, *, no_delay=False):
    if no_delay:
        create_user(user)  # only when a caller passes no_delay=True
    else:
        queue_create_user(user)
    return user


def sync_profile(user, dry_run=False):
    if dry_run:
        return None
    return requests.post("https://edx.example/profile", json={}, timeout=TIMEOUT)


def send_webhooks(fq):
    if fq.status in FINAL:  # only final statuses are posted
        requests.post("https://hook.example/x", json={"id": fq.pk}, timeout=TIMEOUT)


def mark_status(fq, status):
    fq.status = status
    fq.save()
    send_webhooks(fq)


def notify(kind):
    if kind == "email":
        requests.post("https://mail.example/send", json={}, timeout=TIMEOUT)


def refresh(user, notify_remote):
    return push(user, notify_remote)


def push(user, notify_remote):
    if not notify_remote:
        return None
    return requests.post("https://edx.example/push", json={}, timeout=TIMEOUT)
