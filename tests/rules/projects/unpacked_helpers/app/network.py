def validate_redirect(resp, *args, **kwargs):
    if resp.is_redirect and resp.headers.get("location", "").startswith("http://10."):
        raise ValueError("redirect to a private address")


def hook_kwargs():
    return {"hooks": {"response": validate_redirect}}


def timed_kwargs(seconds):
    options = {"hooks": {"response": validate_redirect}}
    options["timeout"] = seconds
    return options


def merged_kwargs(extra):
    return {"hooks": {"response": validate_redirect}, **extra}
