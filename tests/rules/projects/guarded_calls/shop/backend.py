import requests


def request_api(base_url, endpoint, timeout, params=None, json_data=None, method="GET"):
    request = requests.post if method == "POST" else requests.get
    response = request(url=f"{base_url}/{endpoint}", params=params, json=json_data, timeout=timeout)
    return response.json()
