from st2client.models import ActionAliasResourceManager, ResourceManager


class Client(object):
    def __init__(self, api_url=None, token=None):
        self.token = token
        self.managers = dict()
        self.managers["ActionAlias"] = ActionAliasResourceManager(api_url)
        self.managers["ActionAliasExecution"] = ResourceManager(api_url)
        self.managers["KeyValuePair"] = ResourceManager(api_url)

    @property
    def keys(self):
        return self.managers["KeyValuePair"]
