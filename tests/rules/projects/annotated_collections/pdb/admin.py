# select: RES301
from django.db import transaction

from pdb.mail import mail_users_entity_merge


@transaction.atomic
def merge_organizations(targets, target, request):
    for org in targets:
        source_admins = list(org.admin_usergroup.user_set.all())
        org.delete()
        mail_users_entity_merge(  # expect: RES301 "`mail_users_entity_merge` -> `User.email_user`"
            source_admins, target.admin_usergroup.user_set.all(), org, target
        )
