from django.conf import settings


def get_webhook_request_function():
    """The request function webhooks are sent with: advocate's refuses private addresses."""
    if settings.ALLOW_PRIVATE_ADDRESSES:
        from requests import request

        return request
    from advocate import request

    return request


def get_parser():
    import json

    return json.loads
