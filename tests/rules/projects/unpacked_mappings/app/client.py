import requests

from app.api import Api, ClientOfItsOwnApi, DirectApi, WrappedLiteralApi


def from_call(subdomain):
    config = dict(subdomain=subdomain, session=requests.Session(), timeout=5)
    return Api(config, "ticket")


def from_literal():
    config = {"session": requests.Session(), "timeout": 5}
    return WrappedLiteralApi(config)


def unpacked_here(subdomain):
    config = {"subdomain": subdomain, "session": requests.Session()}
    return DirectApi(**config)


def without_session():
    options = {"verbose": True}
    return ClientOfItsOwnApi(**options)
