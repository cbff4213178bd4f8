from app.mail import send_email


def notify(abstract):
    send_email({"from": "app@example", "to": [abstract.email], "body": abstract.title})
