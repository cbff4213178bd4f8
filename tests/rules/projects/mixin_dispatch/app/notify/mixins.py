from . import services


class WatchedResourceMixin:
    def post_save(self, obj, created=False):
        services.notify(obj)
        super().post_save(obj, created)

    def pre_delete(self, obj):
        services.notify(obj)
        super().pre_delete(obj)
