# A module with a stub beside it is read from its source: HTTPSession.request fills in the
# timeout that its stub only declares.
from player.session import Player


class Plugin:
    def __init__(self, player: Player):
        self.player: Player = player

    def streams(self, url):
        return self.player.http.get(url)

    def page(self, url):
        return self.player.plain.get(url)  # expect: RES101
