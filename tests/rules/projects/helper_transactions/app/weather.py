import requests

TIMEOUT = (3.05, 10)


def get_weather(point):
    return requests.get("https://weather.example/now", params=point, timeout=TIMEOUT).json()
