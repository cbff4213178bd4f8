from app import db
from app.sync import call_store, record_shelves


@db.requires_user
def sync_view(user_id):
    results = []
    record_shelves(user_id, results)  # commits the session the decorator queried
    return call_store(results)


@db.requires_user
def proxy_view():
    return call_store([])  # expect: RES301
