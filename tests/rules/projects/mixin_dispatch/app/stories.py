from django.db import transaction

from app.base.mixins import ModelCrudViewSet
from app.history import HistoryResourceMixin
from app.notify.mixins import WatchedResourceMixin


class UserStoryViewSet(HistoryResourceMixin, WatchedResourceMixin, ModelCrudViewSet):
    @transaction.atomic
    def create(self, request):
        # the mixin (first base) has no ``create``: ``super()`` goes on to ModelCrudViewSet's
        return super().create(request)  # expect: RES301 "`UserStoryViewSet.create` -> `ModelCrudViewSet.create` -> `CreateModelMixin.post_save`"
