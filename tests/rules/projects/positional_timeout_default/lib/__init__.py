import requests


class Consumer:
    def __init__(self, events_url=None, request_timeout=None):
        self._url = events_url or "https://api.example.com/track"
        self._request_timeout = request_timeout
        self._session = requests.Session()

    def send(self, data):
        return self._session.post(self._url, data=data, timeout=self._request_timeout)


class BufferedConsumer:
    def __init__(self, max_size=50, events_url=None, request_timeout=None):
        # hands its own None default on by position
        self._consumer = Consumer(events_url, request_timeout)
        self._buf = []
        self._max_size = max_size

    def send(self, data):
        self._buf.append(data)
        if len(self._buf) >= self._max_size:
            self.flush()

    def flush(self):
        self._consumer.send("[" + ",".join(self._buf) + "]")
        self._buf = []
