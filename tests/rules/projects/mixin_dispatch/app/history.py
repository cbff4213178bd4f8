class HistoryResourceMixin(object):
    def pre_delete(self, obj):
        self.snapshot(obj)
        super().pre_delete(obj)

    def snapshot(self, obj):
        obj.refresh_from_db()
