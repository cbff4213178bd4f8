"""Which ``except`` handlers can run (libraries/retry_scopes/swallowing.py)."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from resilint.libraries.retry_scopes.swallowing import shadowed
from resilint.lint.semantic import SemanticModel
from resilint.lint.traversal import iter_nodes


def reachable(handlers: str):
    """For each handler of ``try: work()`` followed by ``handlers``, whether it can run."""
    source = "import asyncio\nfrom django.db import OperationalError\ntry:\n    work()\n" + textwrap.dedent(handlers)
    module = cst.parse_module(source)
    model = SemanticModel(module, module_name="m", path="m.py", text=source)
    node = next(n for n in iter_nodes(module) if isinstance(n, cst.Try))
    return [not shadowed(model, node, handler, model.module_scope, 1 << 62) for handler in node.handlers]


@pytest.mark.parametrize("handlers, expected", [
    ("except OperationalError: pass\nexcept Exception: pass\n", [True, True]),
    ("except Exception: pass\nexcept OperationalError: pass\n", [True, False]),
    ("except Exception: pass\nexcept (OperationalError, ValueError): pass\n", [True, False]),
    ("except Exception: pass\nexcept KeyboardInterrupt: pass\n", [True, True]),
    ("except Exception: pass\nexcept asyncio.CancelledError: pass\n", [True, True]),
    ("except BaseException: pass\nexcept KeyboardInterrupt: pass\n", [True, False]),
])
def test_a_handler_after_one_that_catches_all_it_would_never_runs(handlers, expected):
    assert reachable(handlers) == expected
