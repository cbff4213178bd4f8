import httpx


def to_image(url, timeout=30):
    response = httpx.get(url, timeout=timeout)
    return response.content
