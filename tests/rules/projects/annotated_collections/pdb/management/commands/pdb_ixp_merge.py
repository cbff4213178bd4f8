# select: RES301
from django.core.management.base import BaseCommand
from django.db import transaction

from pdb.mail import mail_users_entity_merge


class Command(BaseCommand):
    @transaction.atomic()
    def handle(self, *args, **options):
        ixp_from, ixp_to = options["src"], options["dst"]
        if options.get("commit"):
            ixp_from.delete()
            mail_users_entity_merge(  # expect: RES301 "`Command.handle` -> `mail_users_entity_merge`"
                ixp_from.org.admin_usergroup.user_set.all(),
                ixp_to.org.admin_usergroup.user_set.all(),
                ixp_from,
                ixp_to,
            )
