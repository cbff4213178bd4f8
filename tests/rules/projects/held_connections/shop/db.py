from functools import wraps

from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

engine = create_engine("postgresql://shop")


def in_transaction(function):
    @wraps(function)
    def wrapper(*args, **kwargs):
        with engine.begin() as conn:
            return function(conn, *args, **kwargs)

    return wrapper


SessionLocal = sessionmaker(bind=engine)
