"""Canonical names of library objects, as rules match them."""

import pytest

from resilint.lint.canonical import canonical_name


@pytest.mark.parametrize(
    "name, canonical",
    [
        # a client library vendored in the project is the library
        ("lib.requests.get", "requests.get"),
        ("pip._vendor.requests.Session.get", "requests.Session.get"),
        ("sickgear.lib.urllib3.util.retry.Retry", "urllib3.Retry"),  # and its aliases then apply
        ("libs.httpx.Client", "httpx.Client"),
        # not a project module that only shares a directory or a library's name
        ("ckan.lib.redis.connect_to_redis", "ckan.lib.redis.connect_to_redis"),
        ("mylib.requests.get", "mylib.requests.get"),
        ("lib.requests_cache_helpers.get", "lib.requests_cache_helpers.get"),
        ("app.lib.http.fetch", "app.lib.http.fetch"),
    ],
)
def test_vendored_copies_are_the_library(name, canonical):
    assert canonical_name(name) == canonical
