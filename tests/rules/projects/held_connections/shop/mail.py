import os
import smtplib

import requests


class MailgunProvider:
    @staticmethod
    def sendmail(addr, text):
        return requests.post("https://api.mailgun.example/messages", data={"to": addr, "text": text}, timeout=(3, 10))


class SMTPProvider:
    @staticmethod
    def sendmail(addr, text):
        smtp = smtplib.SMTP("mail.example.org", 25, timeout=10)
        smtp.sendmail("shop@example.org", [addr], text)
        smtp.quit()


PROVIDERS = {"smtp": SMTPProvider, "mailgun": MailgunProvider}


def sendmail(addr, text):
    provider = PROVIDERS.get(os.environ.get("MAIL_PROVIDER", "smtp"))
    if provider is None:
        return False
    return provider.sendmail(addr, text)
