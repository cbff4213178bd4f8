from loadlib.clients import HttpSession


class HttpUser:
    host = None

    def __init__(self, environment):
        self.environment = environment
        self.client = HttpSession(base_url=self.host)
