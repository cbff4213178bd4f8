import smtplib

SMTP_TIMEOUT = 10


def mail_recipient(name, email, subject, body):
    conn = smtplib.SMTP("smtp.example.com", 587, timeout=SMTP_TIMEOUT)
    try:
        conn.sendmail("noreply@example.com", [email], body)
    finally:
        conn.quit()
