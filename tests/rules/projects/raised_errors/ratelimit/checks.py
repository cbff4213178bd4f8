from .codes import RATE_LIMIT_RESPONSE_CODE
from .errors import ApiError, RateLimitError, ServerError


def check_response_code(response, expected):
    # raises what the loop retries only when the server refused the request (webexteamssdk)
    if response.status_code == expected:
        pass
    elif response.status_code == RATE_LIMIT_RESPONSE_CODE:
        raise RateLimitError(response)
    else:
        raise ApiError(response)


def check_server(response):
    if response.status_code >= 500:
        raise ServerError(response)
