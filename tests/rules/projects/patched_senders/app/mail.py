import smtplib

SMTP_TIMEOUT = 10


def send_email(email):
    with smtplib.SMTP("mail.example", 25, timeout=SMTP_TIMEOUT) as conn:
        conn.sendmail(email["from"], email["to"], email["body"])
