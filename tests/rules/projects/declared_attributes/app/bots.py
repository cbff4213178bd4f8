import requests

from app.sessions import create_request_session


class LookupBot:
    # declares the type; the session the method assigns fills a timeout in
    __session: requests.Session

    def init(self, timeout):
        self.__session = create_request_session(timeout)
        return self.__session.get("https://data.iana.org/rdap/dns.json")


class PlainBot:
    session: requests.Session

    def init(self):
        self.session = requests.Session()
        return self.session.get("https://data.iana.org/rdap/dns.json")  # expect: RES101


class InjectedBot:
    session: requests.Session

    def __init__(self, session):
        self.session = session

    def fetch(self):
        return self.session.get("https://data.iana.org/rdap/dns.json")  # expect: RES101


def run():
    return InjectedBot(requests.Session()).fetch()
