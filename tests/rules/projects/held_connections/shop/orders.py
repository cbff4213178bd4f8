import requests

from shop.db import SessionLocal, engine
from shop.mail import sendmail
from sqlalchemy.orm import sessionmaker

LocalSession = sessionmaker(bind=engine)


def accept(order):
    with SessionLocal() as db:
        with db.begin():
            db.add(order)
            requests.post("https://audit.example/events", json={"id": order.id}, timeout=5)  # expect: RES301 "inside `db.begin()`"


def redeliver(order_id):
    db = SessionLocal()
    order = db.execute("SELECT * FROM orders WHERE id = :id", {"id": order_id})
    requests.post("https://hooks.example/deliver", json={"id": order_id}, timeout=5)  # expect: RES301 "`db.execute()` began"
    db.commit()
    db.close()
    return order


def redeliver_here(order_id):
    db = LocalSession()
    db.execute("SELECT 1")
    requests.post("https://hooks.example/deliver", json={"id": order_id}, timeout=5)  # expect: RES301
    db.commit()


def show(order_id):
    db = SessionLocal()
    order = db.get(order_id)
    db.close()
    requests.post("https://audit.example/viewed", json={"id": order_id}, timeout=5)
    return order


def confirm(order_id):
    db = SessionLocal()
    order = db.execute("SELECT * FROM orders WHERE id = :id", {"id": order_id})
    sendmail(order.email, "confirmed")  # expect: RES301 "`sendmail` -> `SMTPProvider.sendmail`"
    db.commit()
