import smtplib

from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()


class Mailbox(object):
    # a mixin after the library's model base: its methods are the model's
    def sendmail(self, body):
        with smtplib.LMTP("front", 2525, timeout=10) as lmtp:
            lmtp.sendmail("postmaster@example.com", [self.id], body)


class User(db.Model, Mailbox):
    id = db.Column(db.Integer, primary_key=True)
    avatar_url = db.Column(db.String)

    def describe(self):
        return f"user {self.id}"
