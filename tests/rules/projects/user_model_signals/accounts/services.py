# select: RES301
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.db import transaction

from accounts.models import Member, Team

UserModel = get_user_model()


@transaction.atomic
def anonymize(user):
    # post_save of the user model runs `welcome` here, inside the transaction
    User.objects.create_user(username="deleted", email="deleted@example.com")  # expect: RES301 "`create_user` -> `welcome` -> `send_welcome`"


def invite(email):
    with transaction.atomic():
        return UserModel.objects.create_superuser(username=email, email=email)  # expect: RES301 "`create_superuser` -> `welcome` -> `send_welcome`"


def join(name):
    with transaction.atomic():
        # the project's own user model (what `get_user_model()` gives) sends the user model's signals
        return Member.objects.create(username=name)  # expect: RES301 "`create` -> `welcome` -> `send_welcome`"


def leave(member_pk):
    member = Member.objects.get(pk=member_pk)
    with transaction.atomic():
        # post_delete of the user model, connected through `settings.AUTH_USER_MODEL`
        member.delete()  # expect: RES301 "`delete` -> `audit` -> `send_audit`"


def add_team(name):
    with transaction.atomic():
        # connected by its label, `"accounts.Team"`
        return Team.objects.create(name=name)  # expect: RES301 "`create` -> `team_saved` -> `send_audit`"


def add_group(name):
    # no receiver listens to groups
    with transaction.atomic():
        return Group.objects.create(name=name)
