"""add-timeout beyond the before/after pairs: the runtime import it adds (once, never shadowing a
name the module uses) and the clients it leaves alone."""

from __future__ import annotations

import textwrap

import pytest

from resilint.codemods.add_timeout import AddTimeout
from resilint.lint.config import Settings
from resilint.fixing.codemod_run import run_codemod


def _fixed(source: str) -> str:
    run = run_codemod(AddTimeout, textwrap.dedent(source).encode(), "example.py", Settings(fix_target="runtime"), None)
    assert run.updated is not None
    return run.updated.decode()


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("import requests\n\ndef f(u):\n    timeout = 5\n    return requests.get(u)\n", "runtime_timeout"),
        ("import requests\nfrom asyncio import timeout\n\nrequests.get('u')\n", "runtime_timeout"),
        ("import requests\n\nclass C:\n    timeout = 5\n\nrequests.get('u')\n", "runtime_timeout"),
        ("import requests\n\ndef timeout():\n    pass\n\ndef runtime_timeout():\n    pass\n\nrequests.get('u')\n", "runtime_timeout2"),
        # a name read but bound nowhere in the file (a star import) is taken too
        ("import requests\nfrom helpers import *\n\nrequests.get('u')\nprint(timeout)\n", "runtime_timeout"),
        # the keyword and attribute called timeout are not variables
        ("import requests\n\nrequests.get('u')\nx = obj.timeout\ny = f(timeout=1)\n", "timeout"),
    ],
)
def test_the_import_never_shadows_a_name_already_used(source, name):
    fixed = _fixed(source)
    imported = "from resilint.runtime import timeout" + ("" if name == "timeout" else f" as {name}")
    assert fixed.count(imported + "\n") == 1
    assert f"timeout={name}(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)" in fixed


def test_the_import_is_added_once_for_many_calls_and_merged_with_an_existing_one():
    fixed = _fixed("""
        import requests
        from resilint.runtime import retry

        requests.get('a')
        requests.get('b', timeout=None)
    """)
    assert fixed.count("import") == 2
    assert "from resilint.runtime import retry, timeout\n" in fixed  # merged, in isort's order
    assert fixed.count("timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)") == 2
    assert fixed.count("HTTP_READ_TIMEOUT = 10\n") == 1  # one constant per value and file


def test_an_existing_runtime_import_under_an_alias_is_reused():
    source = "import requests\nfrom resilint.runtime import timeout as t\n\nrequests.get('a', timeout=t())\nrequests.get('b')\n"
    fixed = _fixed(source)
    assert fixed == (
        "import requests\nfrom resilint.runtime import timeout as t\n\n"
        "HTTP_READ_TIMEOUT = 10\nHTTP_CONNECT_TIMEOUT = 3.05\n\n"
        "requests.get('a', timeout=t())\nrequests.get('b', timeout=t(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT))\n"
    )


def test_a_literal_dict_unpacked_without_a_timeout_gets_the_keyword_after_it():
    fixed = _fixed("import requests\n\nrequests.post('u', **{'json': {}})\n")
    assert "requests.post('u', **{'json': {}}, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT))" in fixed
    compile(fixed, "example.py", "exec")


def test_a_client_from_extend_clients_is_left_alone_and_says_why():
    settings = Settings(extend_clients=("myapp.http.get",))
    run = run_codemod(AddTimeout, b"from myapp import http\n\nhttp.get('u')\n", "example.py", settings, None)
    assert run.updated is None
    assert run.left_alone == [(3, "`myapp.http.get` comes from `extend-clients`: resilint does not know what its timeout takes")]
