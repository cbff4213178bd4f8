# select: RES301
# Another top-level package of the project: its query leaves the session's transaction open,
# and the repository's commit (a session method kept on the object) ends it after the mails.
import datetime

import core.model as model


def send_notification(user, email_dict):
    import core.mailer
    core.mailer.mail_recipient(user["name"], user["email"],
                               email_dict["subject"], email_dict["body"])


def get_and_send_notifications_for_user(user, notifications):
    dashboard = model.Dashboard.get(user["id"])
    if dashboard:
        for notification in notifications:
            send_notification(user, notification)  # expect: RES301 "that `model.Dashboard.get()` left open"
        dashboard.email_last_sent = datetime.datetime.utcnow()
        model.repo.commit()


def send_digest(user, notifications):
    # the settings read comes first: each call of another package may be the one that opens
    # the transaction
    from core.common import config
    limit = config.get_value("digest.limit")
    dashboard = model.Dashboard.get(user["id"])
    if dashboard:
        for notification in notifications[:limit]:
            send_notification(user, notification)  # expect: RES301 "that `model.Dashboard.get()` left open"
        model.repo.commit()
