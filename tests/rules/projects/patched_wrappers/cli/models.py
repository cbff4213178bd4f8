from cli import httpclient


class ResourceManager:
    def __init__(self, endpoint):
        self.client = httpclient.HTTPClient(endpoint)

    def create(self, instance, **kwargs):
        return self.client.post("/resources", instance, **kwargs)
