from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()


class Token(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    serial = db.Column(db.Unicode(40))
