_client = None


def set_client(client):
    global _client
    _client = client


def client():
    return _client
