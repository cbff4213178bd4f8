# The hooks DestroyModelMixin.destroy calls are those of the classes mixing in this mixin too:
# no status view is watched, so nothing is sent inside this transaction.
from django.db import transaction

from app.base.mixins import ModelCrudViewSet


class MoveOnDestroyMixin:
    @transaction.atomic
    def destroy(self, request):
        self.move_related(request)
        return super().destroy(request)

    def move_related(self, request):
        request.items.update(status=None)


class StatusViewSet(MoveOnDestroyMixin, ModelCrudViewSet):
    pass
