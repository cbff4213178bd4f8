from scraper.context import Context
from scraper.loader import Loader


def default_loader(name):
    loader = Loader()  # expect: RES105 "may wait 300 s, above max-timeout (30 s) (the default `request_timeout=300.0` of `Loader`"
    return loader.profile(name)


def quick_loader(name):
    loader = Loader(request_timeout=10.0)
    return loader.profile(name)


def default_context(path):
    context = Context()  # expect: RES105 "the default `request_timeout=300.0` of `Context`"
    return context.get_json(path, {})


def quick_context(path):
    context = Context(True, 5.0)
    return context.get_json(path, {})
