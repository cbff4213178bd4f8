from app import config


def fetch(url):
    return config.SESSION.get(url)  # expect: RES101 "the client comes from `SESSION`"
