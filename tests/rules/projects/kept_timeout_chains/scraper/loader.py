from scraper.context import Context


class Loader:
    def __init__(self, quiet: bool = False, request_timeout: float = 300.0):
        self.context = Context(quiet, request_timeout)

    def profile(self, name):
        return self.context.get_json("api/v1/users/web_profile_info/", {"username": name})
