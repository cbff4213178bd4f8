from st2client import httpclient


class ResourceManager(object):
    def __init__(self, endpoint):
        self.client = httpclient.HTTPClient(endpoint)

    def get_by_id(self, id, **kwargs):
        return self.client.get("/actionalias/%s" % id, **kwargs)

    def create(self, instance, **kwargs):
        return self.client.post("/aliasexecution", instance, **kwargs)


class ActionAliasResourceManager(ResourceManager):
    def match(self, instance, **kwargs):
        return self.client.post("/actionalias/match", instance, **kwargs)
