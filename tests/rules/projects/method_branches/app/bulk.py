import requests


class Bulk:
    def __init__(self, sf):
        self.sf = sf

    def get_batch(self, url):
        return self.sf._make_request('GET', url, headers={"X": "y"}).text
