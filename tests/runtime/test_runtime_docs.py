"""docs/runtime.md is what users read first: its signatures and its example log line must be
what the code does."""

from __future__ import annotations

import ast
import inspect
import logging
import re
from pathlib import Path

import pytest

import resilint.runtime
import resilint.runtime.testing
from resilint.runtime import CircuitBreaker

DOC = Path(__file__).resolve().parents[2] / "docs" / "runtime.md"
SPAN = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)\(([^`]*)\)`")


def public(name):
    for module in (resilint.runtime, resilint.runtime.testing):
        obj = getattr(module, name, None)
        if callable(obj):
            return obj
    return None


def documented_signatures(text):
    """Inline spans written as a signature of a public callable: ``name(params)`` whose params
    parse as a parameter list and start with the callable's first parameter."""
    for name, params in SPAN.findall(text):
        obj = public(name)
        if obj is None or not params.strip():
            continue
        try:
            args = ast.parse(f"def f({params}): pass").body[0].args
        except SyntaxError:
            continue  # a call with values, not a signature
        real = [p for p in inspect.signature(obj).parameters.values() if p.name != "clock"]
        shown = args.posonlyargs + args.args + args.kwonlyargs
        if shown and real and shown[0].arg == real[0].name:
            yield name, obj, args


def test_documented_signatures_match_the_code():
    text = DOC.read_text(encoding="utf-8")
    found = list(documented_signatures(text))
    assert {"calibrate", "idempotency_scope", "HttpPolicy", "timeout"} <= {name for name, _, _ in found}
    for name, obj, args in found:
        real = inspect.signature(obj).parameters
        keyword_only = {a.arg for a in args.kwonlyargs}
        defaults = dict(zip([a.arg for a in args.args][len(args.args) - len(args.defaults):], args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        for arg in args.args + args.kwonlyargs:
            assert arg.arg in real, f"{name}: no parameter {arg.arg!r}"
            kind = real[arg.arg].kind
            shown_kind = inspect.Parameter.KEYWORD_ONLY if arg.arg in keyword_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
            assert kind == shown_kind, f"{name}: {arg.arg!r} is {kind.description}, the docs show it {shown_kind.description}"
            if arg.arg in defaults:
                try:
                    value = ast.literal_eval(defaults[arg.arg])
                except ValueError:
                    continue  # an expression such as min(3.05, read)
                assert real[arg.arg].default == value, f"{name}: {arg.arg!r} defaults to {real[arg.arg].default!r}"


def test_documented_breaker_log_line_is_what_is_logged(clock, caplog):
    breaker = CircuitBreaker("catalog", slow_call_duration=0.5, slow_call_rate=0.5, failure_rate=0.5,
                             window=10.0, min_calls=10, open_duration=5.0, open_jitter=0.2, half_open_probes=3)
    with caplog.at_level(logging.WARNING, logger="resilint.runtime"):
        for _ in range(10):
            permit = breaker.allow()
            clock.advance(0.8)
            permit.record_success()
    (line,) = [r.getMessage() for r in caplog.records if "breaker_transition" in r.getMessage()]
    assert f"`{line}`" in DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize("span", ["calibrate(p99, budget, attempts=3, factor=1.4)", "idempotency_scope(key=None, new=True)"])
def test_the_signature_check_catches_keyword_only_shown_as_positional(span):
    ((name, obj, args),) = documented_signatures(f"`{span}`")
    kinds = {p.name: p.kind for p in inspect.signature(obj).parameters.values()}
    shown_positional = {a.arg for a in args.args}
    assert any(kinds[n] == inspect.Parameter.KEYWORD_ONLY for n in shown_positional)
