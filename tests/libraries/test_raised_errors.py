"""What a function raises of its own, and on what (libraries/raised_errors.py): the project
fixture ``raised_errors`` and RES201's examples show what RES201 makes of it."""

from __future__ import annotations

import textwrap
from typing import Dict, List, Tuple

import libcst as cst

from resilint.libraries.raised_errors import (
    ANSWERED,
    CONVERTED,
    REFUSED,
    file_classes,
    raised_errors,
    repeats_lost_response,
)
from resilint.lint.semantic import SemanticModel


def _model(source: str) -> SemanticModel:
    text = textwrap.dedent(source).lstrip("\n")
    return SemanticModel(cst.parse_module(text), module_name="app.m", path="app/m.py", text=text)


def raised(source: str) -> Dict[str, List[Tuple[str, str]]]:
    return {info.name: found for info, found in raised_errors(_model(source))}


def test_how_each_raise_is_read():
    assert raised(
        """
        import requests
        from app.errors import TryAgain, Gone

        def send(url):
            try:
                response = requests.post(url, timeout=5)
            except requests.ConnectionError as exc:
                raise TryAgain() from exc
            if response.status_code == 429:
                raise TryAgain
            elif response.status_code in (408, 425):
                raise Gone("later")
            if response.status_code != 429:
                raise Gone()
            if response.status_code >= 500:
                raise TryAgain()
            raise ValueError("builtins are left out")
        """
    ) == {"send": [
        ("app.errors.TryAgain", CONVERTED), ("app.errors.TryAgain", REFUSED), ("app.errors.Gone", REFUSED),
        ("app.errors.Gone", ANSWERED), ("app.errors.TryAgain", ANSWERED),
    ]}


def test_a_raise_in_the_else_branch_is_no_refusal():
    assert raised(
        """
        from app.errors import TryAgain

        def check(response):
            if response.status == 429:
                pass
            else:
                raise TryAgain()
        """
    ) == {"check": [("app.errors.TryAgain", ANSWERED)]}


def _always(name: str) -> bool:
    return True


def test_a_layer_of_project_errors_repeats_a_lost_response_only_through_a_raise():
    def ancestry(name: str):
        return {"app.TryAgain", "app.ApiError"} if name == "app.TryAgain" else {name}

    caught = ["app.ApiError"]
    assert not repeats_lost_response(caught, [[("app.TryAgain", REFUSED)]], _always, ancestry)
    assert not repeats_lost_response(caught, [[("app.TryAgain", ANSWERED)], []], _always, ancestry)
    assert not repeats_lost_response(caught, [[("app.Other", CONVERTED)]], _always, ancestry)
    assert repeats_lost_response(caught, [[("app.TryAgain", CONVERTED)], []], _always, ancestry)
    assert repeats_lost_response(caught, [[], [("app.TryAgain", ANSWERED)]], _always, ancestry)
    # a library's error, or no classes at all: the request's own failure may be what it retries
    assert repeats_lost_response(["requests.RequestException"], [[]], lambda name: name.startswith("app."), ancestry)
    assert repeats_lost_response([], [[]], _always, ancestry)
    # a class whose bases are not all known may derive from what the layer retries
    assert repeats_lost_response(caught, [[("app.Unknown", CONVERTED)]], _always, lambda name: None)


def test_what_one_file_tells_of_its_classes():
    is_project_class, ancestry = file_classes(_model(
        """
        import requests

        class ApiError(Exception):
            pass

        class TryAgain(ApiError):
            pass

        class Wrapped(requests.RequestException):
            pass
        """
    ))
    assert is_project_class("app.m.TryAgain") and is_project_class("app.errors.Other")
    assert not is_project_class("requests.RequestException")
    assert ancestry("app.m.TryAgain") == {"app.m.TryAgain", "app.m.ApiError", "builtins.Exception"}
    assert ancestry("app.m.Wrapped") is None
    assert ancestry("app.errors.Other") is None
