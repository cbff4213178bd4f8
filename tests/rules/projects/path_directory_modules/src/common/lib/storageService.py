import requests

TIMEOUT = (3.05, 30)


def create_file(uuid, path):
    response = requests.post("http://ss.example/api/v2/file/", json={"uuid": uuid, "path": path}, timeout=TIMEOUT)
    response.raise_for_status()
    return response.json()
