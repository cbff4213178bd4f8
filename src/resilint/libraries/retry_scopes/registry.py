"""The library registry, by discovery: each module of this package may declare

* ``POLICIES``: qualified name → factory ``(recogniser, node, scope, order) -> Policy`` for the
  calls that define a retry policy (``tenacity.retry``, ``urllib3.Retry`` …);
* ``BARE_DECORATORS``: names among its ``POLICIES`` that also make a policy as a bare
  decorator (``@tenacity.retry``);
* ``WRAPS_FUNCTION``: names among its ``POLICIES`` that, called with one function
  (``retry(fn)``), apply the policy to it;
* ``CLIENTS``: qualified name → handler ``(recogniser, call) -> None`` for the calls that
  apply a policy known by then: clients that retry by themselves (adapters, pools,
  transports), and job queues that retry what they run (RQ's ``enqueue(..., retry=...)``).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, Mapping

import libcst as cst

from resilint.libraries.retry_scopes.model import Policy
from resilint.lint.semantic import CallSite, Scope

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser

PolicyFactory = Callable[["Recogniser", cst.CSTNode, Scope, int], Policy]
ClientHandler = Callable[["Recogniser", CallSite], None]


@dataclass(frozen=True)
class Libraries:
    policies: Mapping[str, PolicyFactory]
    clients: Mapping[str, ClientHandler]
    bare_decorators: FrozenSet[str]
    wraps_function: FrozenSet[str]


@lru_cache(maxsize=None)
def libraries() -> Libraries:
    """Every library module's declarations, merged; a name claimed twice is an error."""
    package = importlib.import_module(__name__.rsplit(".", 1)[0])
    policies: Dict[str, PolicyFactory] = {}
    clients: Dict[str, ClientHandler] = {}
    bare: FrozenSet[str] = frozenset()
    wraps: FrozenSet[str] = frozenset()
    for info in pkgutil.iter_modules(package.__path__, prefix=f"{package.__name__}."):
        module = importlib.import_module(info.name)
        for declared, merged in ((getattr(module, "POLICIES", {}), policies), (getattr(module, "CLIENTS", {}), clients)):
            for name, handler in declared.items():
                if name in policies or name in clients:
                    raise RuntimeError(f"retry scope name {name} is declared twice (again in {module.__name__})")
                merged[name] = handler
        bare |= getattr(module, "BARE_DECORATORS", frozenset())
        wraps |= getattr(module, "WRAPS_FUNCTION", frozenset())
    if not (bare | wraps) <= set(policies):
        raise RuntimeError(f"names without a policy factory: {sorted((bare | wraps) - set(policies))}")
    return Libraries(policies, clients, bare, wraps)
