"""The public API explains itself (issue 28, item 16): a docstring of its own on every public
name and method, reprs that show settings and state, and misuse refused where it is written."""

from __future__ import annotations

import inspect

import pytest

import resilint.runtime
import resilint.runtime.testing
from resilint.runtime import (
    Bulkhead,
    CircuitBreaker,
    HttpPolicy,
    RetryPolicy,
    deadline,
    retry,
    retrying,
)

pytest.importorskip("requests")
pytest.importorskip("httpx")


def public_objects():
    for module in (resilint.runtime, resilint.runtime.testing):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                yield f"{module.__name__}.{name}", obj


def undocumented(name, obj):
    if inspect.isclass(obj):
        if not (obj.__dict__.get("__doc__") or "").strip():
            yield name  # help() would show a base class's text (was: PerDependency's)
        for attr, member in vars(obj).items():
            if attr.startswith("_"):
                continue
            target = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
            if inspect.isfunction(target) and not (target.__doc__ or "").strip():
                yield f"{name}.{attr}"
    elif not (obj.__doc__ or "").strip():
        yield name


def test_every_public_name_and_method_has_a_docstring_of_its_own():
    names = dict(public_objects())
    assert {"resilint.runtime.CircuitBreaker", "resilint.runtime.ResilientClient", "resilint.runtime.testing.FakeClock"} <= set(names)
    missing = [n for name, obj in names.items() for n in undocumented(name, obj)]
    assert missing == []


def test_help_on_the_breaker_is_about_the_breaker():
    assert "slow-call rate" in CircuitBreaker.__doc__ and "per-dependency" not in CircuitBreaker.__doc__.lower()[:40]


def test_reprs_show_settings_and_state(clock):
    breaker = CircuitBreaker("catalog", min_calls=2, open_jitter=0.0)
    breaker.allow().record_failure()
    text = repr(breaker)
    assert "'catalog'" in text and "state='closed'" in text and "min_calls=2" in text and "failures_in_window=1" in text
    breaker.allow().record_failure()
    assert "state='open'" in repr(breaker)
    policy = RetryPolicy(4, base=0.2, dependency="rates", method="post")
    assert repr(policy) == "RetryPolicy(attempts=4, base=0.2, cap=5.0, retry_after_cap=10.0, dependency='rates', budget='rates', method='POST')"
    assert repr(retrying(attempts=2, dependency="rates")).startswith("retrying(RetryPolicy(attempts=2,")
    http = repr(HttpPolicy("search", breaker=True, read=2.0))
    assert http.startswith("HttpPolicy(dependency='search', attempts=3,") and "read=2.0" in http and "breaker=True" in http
    assert repr(Bulkhead("b", 3, 1)) == "Bulkhead('b', max_concurrent=3, max_queue=1, queue_timeout=None, in_flight=0, queued=0)"
    assert repr(deadline(5)) == "deadline(5)"
    from resilint.runtime import ResilientSession, ResilientTransport

    with ResilientSession(dependency="s") as session:
        assert repr(session).startswith("ResilientSession(HttpPolicy(dependency='s',")
    assert repr(ResilientTransport(dependency="t")).startswith("ResilientTransport(HttpPolicy(dependency='t',")


def test_retry_with_a_positional_setting_says_how_to_write_it():
    with pytest.raises(TypeError, match=r"keyword arguments, e\.g\. @retry\(attempts=3\)"):
        retry(3)  # was AttributeError: 'int' object has no attribute '__module__'


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: retry(attemps=3), "attemps"),
        (lambda: retry(attempts="3"), "attempts must be an int"),
        (lambda: retry(retry_on=("ConnectionError",)), "retry_on must be a tuple of exception types"),
        (lambda: retrying(attempts=2.5), "attempts must be an int"),
        (lambda: deadline("5"), "deadline seconds must be a number"),  # was: an error on entry only
        (lambda: CircuitBreaker("b", window="10"), "window must be a number"),
        (lambda: Bulkhead("b", max_concurrent="4"), "max_concurrent must be an int"),
        (lambda: HttpPolicy(read="2"), "read must be a number"),
        (lambda: HttpPolicy(dependency=1), "dependency must be a name"),
    ],
)
def test_misuse_is_refused_where_it_is_written(call, message):
    with pytest.raises(TypeError, match=message):
        call()
