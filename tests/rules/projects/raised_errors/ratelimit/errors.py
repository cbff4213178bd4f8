class ApiError(Exception):
    def __init__(self, response):
        self.response = response
        super().__init__(response.status_code)


class RateLimitError(ApiError):
    def __init__(self, response):
        self.retry_after = int(response.headers.get("Retry-After", 15))
        super().__init__(response)


class ServerError(ApiError):
    pass
