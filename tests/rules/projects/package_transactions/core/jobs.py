# A command that prints before it queries: the print is another package's call (click's), and
# must not take the place of the call that leaves the transaction open.
import click

from core import mailer
from core.model import meta
from core.model.dashboard import Dashboard


def save(dashboard):
    meta.Session.add(dashboard)
    meta.Session.commit()


def resend_digest(user):
    click.echo("resending the digest")
    dashboard = Dashboard.get(user["id"])
    mailer.mail_recipient(user["name"], user["email"], "digest", "...")  # expect: RES301 "that `Dashboard.get()` left open"
    save(dashboard)
