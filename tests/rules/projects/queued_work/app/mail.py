import smtplib

from flask import g

SMTP_TIMEOUT = 10


def do_send_email(email):
    with smtplib.SMTP("mail.example", 25, timeout=SMTP_TIMEOUT) as conn:
        conn.sendmail(email["from"], email["to"], email["body"])


def send_email(email):
    """In a request, queued and sent after its commit (``flush_email_queue``)."""
    if "email_queue" in g:
        g.email_queue.append((do_send_email, email))
    else:
        do_send_email(email)


def send_email_now(email, queue=None):
    if queue is not None:
        queue.append(email)  # the email, not the function that sends it
    else:
        do_send_email(email)


def init_email_queue():
    g.setdefault("email_queue", [])


def flush_email_queue():
    for send, email in g.pop("email_queue", []):
        send(email)


def send_email_later(email, queue):
    if queue: queue.append((do_send_email, email))  # noqa: E701 - a body on the line of its test
    else: do_send_email(email)  # noqa: E701
