"""E-mail and webhook notifications."""

import smtplib
import urllib.request

import requests

WEBHOOK_TIMEOUT = 5  # one number for both connecting and reading


def send_receipt(address, body):
    with smtplib.SMTP("mail.internal") as smtp:
        smtp.sendmail("shop@example.com", [address], body)


def ping_status_page():
    with urllib.request.urlopen("https://status.internal/ping") as response:
        return response.status


def post_webhook(url, payload):
    return requests.post(url, json=payload, timeout=WEBHOOK_TIMEOUT)
