from sqlalchemy import create_engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import sessionmaker

from app.models import Shelf

session = sessionmaker(bind=create_engine("sqlite:///app.db"))()


def session_commit():
    try:
        session.commit()
    except OperationalError:
        session.rollback()
    return ""


def maybe_commit(flag):
    if flag:
        session.commit()


def requires_user(view):
    def wrapper(*args, **kwargs):
        session.query(Shelf).first()
        return view(*args, **kwargs)
    return wrapper

