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


def committing_iterator(items, n=100):
    """Commits after every ``n`` items its caller's loop handles: calling it commits nothing."""
    for index, item in enumerate(items, 1):
        yield item
        if index % n == 0:
            session.commit()
    session.commit()


def requires_user(view):
    def wrapper(*args, **kwargs):
        session.query(Shelf).first()
        return view(*args, **kwargs)
    return wrapper

