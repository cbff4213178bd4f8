# select: RES201
import time

from pkg.errors import PluginError
from pkg.session import Streamlink


class ChannelAPI:
    def __init__(self, session: Streamlink):
        self.session = session

    def channel(self, channel):
        for _ in range(5):
            try:
                return self.session.http.post("https://api.example.com/channel", data={"id": channel})  # expect: RES201 "sends a POST without an `Idempotency-Key` header"
            except PluginError:
                time.sleep(0.75)

    def channel_plain(self, channel):
        # a lost response raises requests' own error, which this loop does not retry
        for _ in range(5):
            try:
                return self.session.plain.post("https://api.example.com/channel", data={"id": channel})
            except PluginError:
                time.sleep(0.75)
