from app.db import db
from app.notifications import notify


def test_notify(mocker, abstract):
    sent = mocker.patch("app.notifications.send_email")  # the name the module calls it by
    db.session.flush()
    notify(abstract)
    assert sent.call_count == 1


def test_notify_other_name(mocker, abstract):
    mocker.patch("app.notifications.notify_all")  # not on the way
    db.session.flush()
    notify(abstract)  # expect: RES301
