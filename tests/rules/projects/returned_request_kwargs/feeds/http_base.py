import requests


class HTTPFeedingServiceBase:
    HTTP_TIMEOUT = 20

    def __init__(self):
        self.session = requests.Session()

    def get_request_kwargs(self):
        return {"timeout": self.HTTP_TIMEOUT}
