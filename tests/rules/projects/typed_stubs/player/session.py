from player.http import HTTPSession, PlainSession


class Player:
    def __init__(self):
        self.http: HTTPSession = HTTPSession()
        self.plain: PlainSession = PlainSession()
