"""Files in syntax newer than the running Python: LibCST reads them, so they are checked and
fixed, and their fixes are validated by LibCST's parser where CPython's compiler cannot read
the original; the messages name the Python and the syntax when the interpreter is the limit."""

from __future__ import annotations

import sys
import textwrap

import pytest

from resilint.lint.checker import check_source, parse_module
from resilint.fixing.codemod_run import interpreter_limit, uncompilable, unparseable
from resilint.lint.syntax_versions import describe, newer_syntax

from tests.fixing.test_fixer import FIXED_CALL, IMPORT, NAMED, _fix

PYTHON = f"Python {sys.version_info[0]}.{sys.version_info[1]}"
# ``except A, B:`` (PEP 758, Python 3.14) is newer than every Python this runs on here; on 3.14
# the other examples stand in for it.
NEWER_THAN_THIS_PYTHON = [
    (code, construct) for code, construct, since in [
        ("try:\n    pass\nexcept ValueError, TypeError:\n    pass\n", "`except A, B:` without parentheses is Python 3.14", (3, 14)),
        ("type Url = str\n", "a `type` statement is Python 3.12", (3, 12)),
        ("def f[T](x: T) -> T:\n    return x\n", "type parameters are Python 3.12", (3, 12)),
        ("x = f'{'quoted'}'\n", "an f-string with its own quotes, a backslash or a comment inside its braces is Python 3.12", (3, 12)),
        ("try:\n    pass\nexcept* ValueError:\n    pass\n", "`except*` is Python 3.11", (3, 11)),
        ("match x:\n    case 1:\n        pass\n", "`match` is Python 3.10", (3, 10)),
    ]
    if sys.version_info < since
] + [("def f():\n    pass\nreturn\n", None)]  # no Python compiles it; LibCST reads it


@pytest.mark.parametrize(("code", "construct"), NEWER_THAN_THIS_PYTHON)
def test_a_file_newer_than_this_python_is_checked_fixed_and_the_limit_named(tmp_path, code, construct):
    source = f"import requests\n\n{code}\nu = 'x'\nrequests.get(u)\n".encode()
    target = tmp_path / "client.py"
    target.write_bytes(source)
    assert [f.code for f in check_source(source.decode(), ["RES101"])] == ["RES101"]
    outcome = _fix(tmp_path)
    assert outcome.fixed == {"RES101": 1} and not outcome.dropped, outcome.dropped
    assert target.read_bytes() == source.replace(b"import requests\n", b"import requests\n" + IMPORT + NAMED, 1).replace(
        b"requests.get(u)", FIXED_CALL
    )
    [note] = outcome.parsed_only
    assert note.startswith(f"{target}: {PYTHON} cannot compile it (line ")
    assert (f"{construct} syntax" if construct else "'return' outside function") in note and "LibCST's parser" in note


def test_a_file_this_python_compiles_is_still_compiled(tmp_path):
    target = tmp_path / "client.py"
    target.write_text("import requests\n\nrequests.get('u')\n")
    outcome = _fix(tmp_path)
    assert outcome.fixed == {"RES101": 1} and outcome.parsed_only == []


def test_the_result_is_validated_by_the_parser_that_read_the_original():
    newer = NEWER_THAN_THIS_PYTHON[0][0].encode()
    assert uncompilable(newer + b"x = 1\n", "a.py", original=newer) is None
    assert unparseable(newer + b"x = 1\n", "a.py", original=newer) is None
    broken = newer + b"x = (\n"
    assert uncompilable(broken, "a.py", original=newer).startswith("the result would not parse")
    assert unparseable(broken, "a.py", original=newer).startswith("the result would not parse")
    # Without the original, or when CPython compiles it, CPython's compiler judges.
    assert uncompilable(newer, "a.py").startswith("the result would not compile")
    assert unparseable(newer, "a.py", original=b"x = 1\n").startswith("the result would not compile")


def test_a_real_error_of_the_original_is_not_blamed_on_newer_syntax():
    """`return` outside a function: LibCST reads it, CPython does not compile it."""
    limit = interpreter_limit(b"return 1\n", "a.py")
    assert limit == f"{PYTHON} cannot compile it (line 1: 'return' outside function)"
    assert interpreter_limit(b"x = (\n", "a.py") is None  # neither reads it: a syntax error
    assert interpreter_limit(b"x = 1\n", "a.py") is None


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("match x:\n    case 1: pass\n", ("`match` is", (3, 10))),
        ("try: pass\nexcept* E: pass\n", ("`except*` is", (3, 11))),
        ("type X = int\n", ("a `type` statement is", (3, 12))),
        ("class C[T]: pass\n", ("type parameters are", (3, 12))),
        ("def f[T = int](): pass\n", ("type parameters are", (3, 12))),
        ("try: pass\nexcept A, B: pass\n", ("`except A, B:` without parentheses is", (3, 14))),
        ("x = t'{a}'\n", ("a t-string is", (3, 14))),
        ("x = f'{a['k']}'\n", ("an f-string with its own quotes, a backslash or a comment inside its braces is", (3, 12))),
        ("x = f'{\"\\\\n\".join(a)}'\n", ("an f-string with its own quotes, a backslash or a comment inside its braces is", (3, 12))),
        ("x = f'{a!r}' f\"{b['k']}\"\ntry: pass\nexcept (A, B): pass\n", None),
    ],
    ids=["match", "except-star", "type", "type-parameters", "first-found", "except-comma", "t-string", "f-string-quotes",
         "f-string-backslash", "older"],
)
def test_the_newer_syntax_is_named_with_the_python_that_introduced_it(code, expected):
    assert newer_syntax(parse_module(code), (3, 9)) == expected
    assert newer_syntax(parse_module(code), (3, 14)) is None


def test_a_type_parameter_default_is_newer_than_type_parameters():
    module = parse_module(textwrap.dedent("def f[T = int](): pass\n"))
    assert newer_syntax(module, (3, 12)) == ("a type parameter's default is", (3, 13))
    assert describe(newer_syntax(module, (3, 12))) == "a type parameter's default is Python 3.13 syntax"
