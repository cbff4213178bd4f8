class Rooms:
    def __init__(self, session):
        self._session = session

    def create(self, title):
        return self._session.post("https://api.example/rooms", json={"title": title})
