"""Project classes that are a library client: a class of the file that extends one and whose
``__init__``, if it has one, passes its arguments on to the base's, or makes a connecting
client that never gets a timeout (``class
Email(Progress, smtplib.SMTP)``, patroni's ``class PatroniPoolManager(urllib3.PoolManager)``,
``class JobRedis(redis.asyncio.Redis)`` handing its ``**kwargs`` to ``super().__init__``).
Making one makes that client, judged as the client is, with the arguments it is given.
"""

from __future__ import annotations

from typing import FrozenSet, Optional, Set

import libcst as cst

from resilint.libraries.clients import CLIENT_CALLS
from resilint.lint.nodes import string_of
from resilint.lint.semantic import CallSite, ClassInfo, FunctionInfo, SemanticModel
from resilint.lint.traversal import iter_nodes

# Clients that connect when made: a subclass with a host connects where it is made.
CONNECTING_CLASSES = frozenset(
    name for name, spec in CLIENT_CALLS.items()
    if spec.library in ("smtplib", "ftplib", "poplib", "imaplib", "http.client") and name.rsplit(".", 1)[-1][:1].isupper()
)
# The methods through which those clients open their connection (http.client connects in
# ``send``; the mail and file-transfer clients in ``connect``).
CONNECTS = ("connect", "send")
# Pools whose default timeout the requests made through them wait by, unless they give their own.
_POOLS = frozenset({"urllib3.PoolManager", "urllib3.ProxyManager", "urllib3.HTTPConnectionPool", "urllib3.HTTPSConnectionPool"})
# Clients configured when made, whose subclasses projects make as their own client (arq's
# ``class ArqRedis(redis.asyncio.Redis)``).
_CONFIGURED = frozenset({"redis.Redis", "redis.asyncio.Redis", "openai.OpenAI", "openai.AsyncOpenAI"})
_FORWARDED = CONNECTING_CLASSES | _POOLS | _CONFIGURED


def forwarded_client(model: SemanticModel, site: CallSite) -> Optional[str]:
    """The library client a call of a class of the file makes: its first base among the
    clients above, when the class has no ``__init__`` of its own or one that hands ``*args,
    **kwargs`` to a base's and otherwise leaves the client's timeout alone."""
    cls = model.resolve(site.node.func, site.scope, site.order)
    if not isinstance(cls, ClassInfo):
        return None
    outer = cls.scope.parent or cls.scope
    base = next((name for name in (model.qualified_name(b, outer, 1 << 62) for b in cls.bases) if name in _FORWARDED), None)
    if base is None:
        return None
    if base in CONNECTING_CLASSES and any(_replaces(cls, method) for method in CONNECTS):
        return None  # it connects its own way (a socket pair in a test), judged where it does
    init = [b.defined for b in cls.scope.bindings.get("__init__", ()) if isinstance(b.defined, FunctionInfo)]
    settings = _settings(base)
    if not init or (len(init) == 1 and _only_forwards(init[0], settings)):
        return base
    return base if len(init) == 1 and base in CONNECTING_CLASSES and _never_timed(cls, init[0], settings) else None


def _replaces(cls: ClassInfo, method: str) -> bool:
    """Whether the class defines ``method`` without calling the base's (``super().send(data)``)."""
    defined = [b.defined for b in cls.scope.bindings.get(method, ()) if isinstance(b.defined, FunctionInfo)]
    return bool(defined) and not any(
        isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == method
        for function in defined for node in iter_nodes(function.node)
    )


def _settings(client: str) -> FrozenSet[str]:
    return CLIENT_CALLS[client].settings | {"timeout"}


def _only_forwards(init: FunctionInfo, settings: FrozenSet[str]) -> bool:
    """``def __init__(self, *args, **kwargs): Base.__init__(self, *args, **kwargs)`` (or
    ``super().__init__(*args, **kwargs)``), and nothing that names the client's timeout
    settings (``self.pool_classes_by_scheme = {...}`` after it is fine); or an ``__init__`` with
    parameters of its own that hands its ``**kwargs`` on to the base's, naming no timeout
    setting (``def __init__(self, pool_or_conn=None, **kwargs): ...;
    super().__init__(**kwargs)``)."""
    node = init.node
    if not isinstance(node, cst.FunctionDef) or not isinstance(node.body, cst.IndentedBlock):
        return False
    if _hands_kwargs_on(node, settings):
        return True
    params = node.params
    if params.kwonly_params or len(params.params) != 1 or not isinstance(params.star_arg, cst.Param) or params.star_kwarg is None:
        return False
    statements = [s for s in node.body.body if not _docstring(s)]
    if not statements or not isinstance(statements[0], cst.SimpleStatementLine):
        return False
    small = statements[0].body[0]
    call = small.value if isinstance(small, cst.Expr) else None
    if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute) or call.func.attr.value != "__init__":
        return False
    if [a.star for a in call.args if a.star] != ["*", "**"]:
        return False
    return not any(_names(part) & settings for statement in statements[1:] for part in iter_nodes(statement))


def _never_timed(cls: ClassInfo, init: FunctionInfo, settings: FrozenSet[str]) -> bool:
    """``def __init__(self, host, context, thumbprint=None): ...; HTTPSConnection.__init__(self,
    host=host, context=context)``: an ``__init__`` with parameters of its own (no ``*args`` or
    ``**kwargs``) that makes the base once, in a class that names none of the client's
    timeout settings: whatever its makers pass, the connection it makes has no timeout."""
    node = init.node
    if not isinstance(node, cst.FunctionDef) or isinstance(node.params.star_arg, cst.Param) or node.params.star_kwarg is not None:
        return False
    made = [
        part for part in iter_nodes(node.body) if isinstance(part, cst.Call) and isinstance(part.func, cst.Attribute)
        and part.func.attr.value == "__init__"
    ]
    return len(made) == 1 and not any(a.star for a in made[0].args) and not any(
        _names(part) & settings for part in iter_nodes(cls.node)
    )


def _hands_kwargs_on(node: cst.FunctionDef, settings: FrozenSet[str]) -> bool:
    star = node.params.star_kwarg
    if not isinstance(star, cst.Param) or isinstance(node.params.star_arg, cst.Param):
        return False
    kwargs = star.name.value
    handed = [
        part for part in iter_nodes(node.body) if isinstance(part, cst.Call) and isinstance(part.func, cst.Attribute)
        and part.func.attr.value == "__init__"
        and any(a.star == "**" and isinstance(a.value, cst.Name) and a.value.value == kwargs for a in part.args)
    ]
    return len(handed) == 1 and not any(_names(part) & settings for part in iter_nodes(node.body))


def _names(node: cst.CSTNode) -> Set[str]:
    """The name, attribute or string key a node spells, if it spells one."""
    if isinstance(node, cst.Name):
        return {node.value}
    if isinstance(node, cst.Attribute):
        return {node.attr.value}
    text = string_of(node) if isinstance(node, cst.SimpleString) else None
    return {text} if text else set()


def _docstring(statement: cst.CSTNode) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr) and isinstance(statement.body[0].value, cst.SimpleString))
