class Rest:
    def __init__(self, sf):
        self.sf = sf

    def get_page(self, url):
        return self.sf._make_request('GET', url, headers={"X": "y"}).json()
