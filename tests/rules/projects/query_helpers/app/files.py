import requests


def resized_image(url):
    return requests.get(url, timeout=5).content
