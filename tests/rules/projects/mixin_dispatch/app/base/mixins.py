# The mixins call hooks they do not define: each concrete view takes them from its other
# bases (taiga-back's UpdateModelMixin / DestroyModelMixin).
from django.db import transaction

from . import generics


class CreateModelMixin:
    def create(self, request):
        obj = self.get_validator(data=request.data).save()
        self.post_save(obj, created=True)
        return obj


class UpdateModelMixin:
    @transaction.atomic
    def update(self, request):
        obj = self.get_validator(data=request.data).save()
        self.post_save(obj, created=False)  # expect: RES301 "`WatchedResourceMixin.post_save` -> `notify` -> `requests.post` runs inside `@transaction.atomic`"
        return obj


class DestroyModelMixin:
    @transaction.atomic
    def destroy(self, request):
        obj = self.get_object()
        self.pre_delete(obj)  # expect: RES301 "`WatchedResourceMixin.pre_delete` -> `notify` -> `requests.post` runs inside"
        obj.delete()


class ModelCrudViewSet(CreateModelMixin, UpdateModelMixin, DestroyModelMixin, generics.GenericAPIView):
    pass


class ReadOnlyViewSet(UpdateModelMixin, generics.GenericAPIView):
    pass
