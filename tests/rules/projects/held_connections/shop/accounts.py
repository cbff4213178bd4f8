# select: RES301
import requests
from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()


class User(db.Model):
    id = db.Column(db.Integer, primary_key=True)


def change_plan(user_id, plan):
    user = db.session.get(User, user_id)  # a SELECT: the session's transaction begins
    requests.post("https://billing.example/plans", json={"user": user.id, "plan": plan}, timeout=5)  # expect: RES301
    db.session.commit()


def fetch_then_store(url, user_id):
    requests.get(url, timeout=5)  # before any query: nothing is held
    user = db.session.get(User, user_id)
    db.session.commit()
    return user
