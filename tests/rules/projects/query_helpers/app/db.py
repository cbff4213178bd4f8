from sqlalchemy.orm.exc import NoResultFound

from app.models import User, db


def save_to_db(item):
    try:
        db.session.add(item)
        db.session.commit()
        return True
    except Exception:
        db.session.rollback()
        return False


def safe_query_without_deleted(model, column_name, value):
    # the model comes from the caller, and the query runs in a try whose else returns the row
    try:
        record = model.query.filter(getattr(model, column_name) == value)
        record = record.one()
    except NoResultFound:
        raise LookupError(column_name)
    else:
        return record


def safe_query(model, column_name, value):
    return safe_query_without_deleted(model, column_name, value)


def page_of(request):
    # an aiohttp request's query string, not a model's
    return request.query.get("page")


def find_user(user_id):
    try:
        return User.query.filter(User.id == user_id).one()
    except NoResultFound:
        raise LookupError(user_id)
