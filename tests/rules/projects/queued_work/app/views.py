from app.db import db
from app.mail import flush_email_queue, init_email_queue, send_email, send_email_later, send_email_now
from app.models import Comment


def create_comment(text, email):
    init_email_queue()
    db.session.add(Comment(text=text))
    db.session.flush()
    send_email({"from": "app@example", "to": [email], "body": text})
    db.session.commit()
    flush_email_queue()


def create_comment_now(text, email):
    db.session.add(Comment(text=text))
    db.session.flush()
    send_email_now({"from": "app@example", "to": [email], "body": text})  # expect: RES301
    db.session.commit()


def create_comment_later(text, email, queue):
    db.session.add(Comment(text=text))
    db.session.flush()
    send_email_later({"from": "app@example", "to": [email], "body": text}, queue)
    db.session.commit()
