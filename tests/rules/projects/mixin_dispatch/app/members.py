# Invites only a new membership: the update path (``created=False``) sends nothing.
import requests
from django.conf import settings

from app.base.mixins import ModelCrudViewSet


class MembershipViewSet(ModelCrudViewSet):
    def post_save(self, obj, created=False):
        super().post_save(obj, created=created)
        if not created:
            return
        requests.post(settings.INVITE_URL, json={"id": obj.pk}, timeout=settings.INVITE_TIMEOUT)
