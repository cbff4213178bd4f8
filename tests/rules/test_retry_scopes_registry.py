"""The retry-scope library registry (lint/retry_scopes/registry.py) is built by discovery."""

from resilint.libraries.retry_scopes.registry import libraries


def test_every_library_family_declares_its_names():
    found = libraries()
    for name in (
        "tenacity.retry", "tenacity.Retrying", "backoff.on_exception", "backoff.on_predicate", "stamina.retry",
        "stamina.retry_context", "retrying.retry", "resilint.runtime.retry", "resilint.runtime.retrying",
        "urllib3.Retry",
    ):
        assert name in found.policies, name
    for name in ("requests.adapters.HTTPAdapter", "urllib3.PoolManager", "httpx.HTTPTransport"):
        assert name in found.clients, name


def test_bare_decorators_and_function_wrappers_have_factories():
    found = libraries()
    assert found.bare_decorators == {
        "tenacity.retry", "retrying.retry", "resilint.runtime.retry", "resilint.runtime.retry.retry",
    }
    assert found.wraps_function == {"tenacity.retry", "retrying.retry"}
    assert not set(found.policies) & set(found.clients)
