# select: RES101
# zenpy's API classes: the session reaches ``__init__`` inside a mapping of keywords


class ConfiguredApi:
    def __init__(self, subdomain, session, timeout):
        self.session = session
        self.timeout = timeout

    def download(self, url):
        return self.session.get(url, stream=True)  # expect: RES101 "the client is what the callers of `ConfiguredApi.__init__` pass as `session`"


class Api(ConfiguredApi):
    def __init__(self, config, object_type):
        self.object_type = object_type
        super().__init__(**config)


class LiteralApi:
    def __init__(self, session, timeout=None):
        self.session = session

    def download(self, url):
        return self.session.get(url, stream=True)  # expect: RES101 "the client is what the callers of `LiteralApi.__init__` pass as `session`"


class WrappedLiteralApi(LiteralApi):
    def __init__(self, config):
        super().__init__(**config)


class DirectApi:
    def __init__(self, subdomain, session):
        self.session = session

    def download(self, url):
        return self.session.get(url, stream=True)  # expect: RES101 "the client is what the callers of `DirectApi.__init__` pass as `session`"


class ClientOfItsOwnApi:
    def __init__(self, session=None, **options):
        self.session = session

    def download(self, url):
        # every caller's mapping hands a session with its own timeout adapter, or none
        return self.session.get(url, stream=True) if self.session else None
