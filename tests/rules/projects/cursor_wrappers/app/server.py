from app.db import DBHandler


class APIServer:
    def __init__(self, path):
        self.db = DBHandler(path)
