import requests

from app import db
from app.models import Shelf

STORE_TIMEOUT = (2, 10)


def record_shelves(user_id, results):
    for shelf in db.session.query(Shelf).filter(Shelf.user_id == user_id):
        results.append(shelf.id)
    db.session_commit()


def call_store(results):
    return requests.get("https://store.example/sync", params={"n": len(results)}, timeout=STORE_TIMEOUT).json()


def handle_sync(user_id):
    results = []
    db.session.query(Shelf).filter(Shelf.user_id == user_id).count()
    record_shelves(user_id, results)  # ends with the other module's commit helper
    return call_store(results)


def handle_direct(user_id):
    db.session.query(Shelf).filter(Shelf.user_id == user_id).count()
    db.session_commit()
    return call_store([])


def handle_maybe(user_id, flag):
    db.session.query(Shelf).filter(Shelf.user_id == user_id).count()
    db.maybe_commit(flag)  # commits only on some calls
    return call_store([])  # expect: RES301


def handle_twice(user_id):
    results = []
    record_shelves(user_id, results)
    db.session.query(Shelf).count()  # begins a new transaction after the commit
    return call_store(results)  # expect: RES301


def refresh_shelves(user_id):
    shelves = db.session.query(Shelf).filter(Shelf.user_id == user_id).all()
    for shelf in db.committing_iterator(shelves):
        call_store([shelf.id])  # expect: RES301


def commit_and_call_store(results):
    db.session.commit()
    return call_store(results)


def call_store_and_commit(results):
    found = call_store(results)
    db.session.commit()
    return found


def handle_commit_first(user_id):
    db.session.query(Shelf).filter(Shelf.user_id == user_id).count()
    return commit_and_call_store([])  # the helper commits before it calls the store


def handle_call_first(user_id):
    db.session.query(Shelf).filter(Shelf.user_id == user_id).count()
    return call_store_and_commit([])  # expect: RES301


class Exporter:
    def __init__(self, other_session):
        self.other_session = other_session

    def commit_other_and_call_store(self, results):
        self.other_session.commit()  # its own session: not the one the caller queried through
        return call_store(results)


def handle_other_session(user_id, other_session):
    db.session.query(Shelf).filter(Shelf.user_id == user_id).count()
    return Exporter(other_session).commit_other_and_call_store([])  # expect: RES301
