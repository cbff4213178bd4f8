from pkg.http import HTTPSession, PlainSession


class Streamlink:
    def __init__(self):
        self.http = HTTPSession()
        self.plain = PlainSession()
