class ApiError(Exception):
    pass


class TryAgain(ApiError):
    """Raised by the client to have the layer in ``retrying`` send the request again."""


class GaveUp(Exception):
    pass
