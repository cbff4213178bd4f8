class GenericAPIView:
    def post_save(self, obj, created=False):
        pass

    def pre_delete(self, obj):
        pass
