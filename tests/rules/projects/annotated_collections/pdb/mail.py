# select: RES301
# peeringdb: the users a merge notifies are walked out of parameters annotated `Iterable[User]`.
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.utils.translation import override

if TYPE_CHECKING:
    from pdb.models import User


def mail_users_entity_merge(
    users_source: Iterable[User],
    users_target: Iterable[User],
    entity_source,
    entity_target,
) -> None:
    msg = f"{entity_source} was merged into {entity_target}"
    for user in set([u for u in users_source] + [u for u in users_target]):
        with override(user.locale):
            user.email_user("Merge Notification", msg)

