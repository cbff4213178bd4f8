"""What a function raises of its own (``raise RateLimited()``), and on what: a failure it turns
into that error (the ``raise`` is in an ``except`` handler), an answer with which the server
refused the request before acting on it (``if r.status == 429: raise RateLimited()``), or
another answer. A retry layer that catches only project errors repeats a POST whose response
was lost only when project code turns that failure into one of them."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.conditions import (
    ERROR_FAMILIES, reads_status, refused_request, status_codes, status_polarity,
)
from resilint.libraries.retry_scopes.statements import leaves, raises_for_status
from resilint.lint.project import class_ancestry
from resilint.lint.semantic import FunctionInfo, RaiseSite, SemanticModel
from resilint.lint.traversal import iter_nodes

CONVERTED = "failure"
REFUSED = "refused"
ANSWERED = "answer"
# on a success answer: every failed status has left the function before it (``if not r.ok:
# raise ...``, ``r.raise_for_status()``), so the request was answered and nothing was lost
SUCCEEDED = "success"
# Classes raised only by code, on purpose, that no client raises: like a project class here.
_ON_PURPOSE = frozenset({"tenacity.TryAgain"})
# Errors a client raises only while it opens the connection, before any byte of the request is
# written: a lost response never raises them.
_BEFORE_SENDING = frozenset({
    "aiohttp.ClientConnectorError", "aiohttp.client_exceptions.ClientConnectorError",
    "aiohttp.ClientConnectorDNSError", "aiohttp.client_exceptions.ClientConnectorDNSError",
    "httpx.ConnectError", "httpx.ConnectTimeout", "requests.ConnectTimeout", "requests.exceptions.ConnectTimeout",
    "urllib3.exceptions.NewConnectionError", "urllib3.exceptions.ConnectTimeoutError", "urllib3.exceptions.NameResolutionError",
    "builtins.ConnectionRefusedError", "socket.gaierror",
})

Raised = Sequence[Tuple[str, str]]


def raised_errors(model: SemanticModel) -> List[Tuple[FunctionInfo, List[Tuple[str, str]]]]:
    """Each function with the classes its ``raise`` statements name, each with how it raises
    it; builtin errors are left out (no project layer catches only those)."""
    found: Dict[int, Tuple[FunctionInfo, List[Tuple[str, str]]]] = {}
    for site in model.raises:
        function = site.scope.enclosing_function
        exc = site.node.exc
        if function is None or exc is None:
            continue
        name = model.qualified_name(_raised_class(model, exc, site), site.scope, site.order)
        if not name or name.startswith("builtins."):
            continue
        entry = (name, _how(site, function.node))
        raised = found.setdefault(id(function), (function, []))[1]
        if entry not in raised:
            raised.append(entry)
    return list(found.values())


def _raised_class(model: SemanticModel, exc: cst.BaseExpression, site: RaiseSite) -> cst.BaseExpression:
    """The class expression a ``raise`` names, through the locals it is kept in: ``err =
    exception(...)``; ``raise err``, with ``exception = exception or PluginError`` (the class
    the function falls back to)."""
    for _ in range(3):
        if isinstance(exc, cst.Name):
            followed = model.followed(exc, site.scope, site.order)
            if isinstance(followed, cst.BooleanOperation) and isinstance(followed.operator, cst.Or):
                followed = followed.right
            if followed is exc:
                break
            exc = followed
        elif isinstance(exc, cst.Call):
            exc = exc.func
        else:
            break
    return exc


def _how(site: RaiseSite, function: cst.CSTNode) -> str:
    start = next((i for i, node in enumerate(site.stack) if node is function), -1)
    own = site.stack[start + 1:]
    if any(isinstance(node, cst.ExceptHandler) for node in own):
        return CONVERTED
    branch = next((node for node in reversed(own) if isinstance(node, cst.If)), None)
    if branch is not None and refused_request(branch.test) and any(node is site.node for node in iter_nodes(branch.body)):
        return REFUSED
    body = function.body.body if isinstance(function, cst.FunctionDef) and isinstance(function.body, cst.IndentedBlock) else ()
    for statement in body:
        if any(node is statement for node in own):
            break
        if _leaves_on_every_failed_status(statement):
            return SUCCEEDED
    return ANSWERED


def _leaves_on_every_failed_status(statement: cst.BaseStatement) -> bool:
    """``r.raise_for_status()``, or ``if not r.ok: raise ...`` (``if r.status_code != 200:``,
    ``>= 400``) whose block leaves the function."""
    if isinstance(statement, cst.SimpleStatementLine):
        return any(raises_for_status(small) for small in statement.body)
    if not isinstance(statement, cst.If) or not leaves(list(statement.body.body) if isinstance(statement.body, cst.IndentedBlock) else []):
        return False
    test = statement.test
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return status_polarity(test.expression) == "good"
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and reads_status(test.left):
        operator, codes = test.comparisons[0].operator, status_codes(test.comparisons[0].comparator)
        if len(codes) != 1:
            return False
        if isinstance(operator, cst.NotEqual):
            return 200 <= codes[0] < 300
        return (isinstance(operator, cst.GreaterThanEqual) and 300 <= codes[0] <= 400) or (
            isinstance(operator, cst.GreaterThan) and 299 <= codes[0] <= 399
        )
    return False


def repeats_lost_response(
    caught: Sequence[str], chain: Sequence[Raised], is_project_class: Callable[[str], bool],
    ancestry: Callable[[str], Optional[Set[str]]],
) -> bool:
    """Whether a layer that retries the errors ``caught`` sends a request again after its
    response was lost, for a request sent at the end of ``chain`` (what each function raises,
    from the retried one down to the one that sends). A request's own failure is an error of
    its library, so a layer that catches only project errors (or errors raised before anything
    is sent, ``aiohttp.ClientConnectorError``) repeats it only when a function of
    the chain turns a failure into one of them (in an ``except``), or the sender (or a helper it
    calls on the response) raises one on an answer that is not a refusal (a 502 may come after
    the server acted; a 429 never does).
    ``ancestry``: a project class and those it derives from, None when not all are known."""
    if not caught or not all(is_project_class(name) or name in _ON_PURPOSE or name in _BEFORE_SENDING for name in caught):
        return True
    retried = set(caught)

    def sets_off(name: str) -> bool:
        bases = ancestry(name)
        return bases is None or bool(bases & retried)

    if any(how == CONVERTED and sets_off(name) for raised in chain for name, how in raised):
        return True
    return bool(chain) and any(how == ANSWERED and sets_off(name) for name, how in chain[-1])


def raised_on_answer_above(
    caught: Sequence[str], on_any: bool, chain: Sequence[Raised], ancestry: Callable[[str], Optional[Set[str]]],
) -> bool:
    """Whether a function above the sender in ``chain`` raises an error the layer retries
    (every error, ``on_any``) on an answer it tests: a sender that catches its request's
    failure and returns (``except RequestException: return {}``) hands a lost response up as
    such an answer (``if not response: raise TaxError``), and the layer sends it again."""
    retried = set(caught)
    return any(
        how == ANSWERED and (on_any or bool((ancestry(name) or {name}) & retried))
        for raised in chain[:-1] for name, how in raised
    )


def quietly_caught(caught: Sequence[str]) -> bool:
    """Whether the classes a ``try`` catches and raises nothing for include a client library's
    errors (``requests.exceptions.RequestException``): a lost response ends there."""
    return any(ERROR_FAMILIES.get(name.split(".", 1)[0]) is not None for name in caught)


def other_library_errors(caught: Sequence[str], sender: str, chain: Sequence[Raised]) -> bool:
    """Whether a layer that retries ``caught`` cannot see a lost response of a request the
    library method ``sender`` sends (``aiohttp.ClientSession.post``): every class it retries is
    another client library's error (``smtplib.SMTPException``), and no function on the way
    turns a failure into one of them."""
    family = ERROR_FAMILIES.get(sender.split(".", 1)[0])
    if family is None or not caught:
        return False
    if any(ERROR_FAMILIES.get(name.split(".", 1)[0], family) == family for name in caught):
        return False
    retried = set(caught)
    return not any(how == CONVERTED and name in retried for raised in chain for name, how in raised)


def file_classes(model: SemanticModel) -> Tuple[Callable[[str], bool], Callable[[str], Optional[Set[str]]]]:
    """What a single file can tell ``repeats_lost_response``: a class of the project is one
    under the file's own top-level package; the classes a class of this file derives from."""
    top = model.module_name.split(".", 1)[0]
    prefix = f"{model.module_name}." if model.module_name else ""
    bases = {
        prefix + cls.qualname: [model.qualified_name(base, cls.scope.parent or cls.scope, 1 << 62) for base in cls.bases]
        for cls in model.classes
    }

    def written(cls: str) -> Optional[List[str]]:
        names = bases.get(cls)
        return None if names is None or None in names else names  # type: ignore[return-value]

    return (lambda name: bool(top) and name.split(".", 1)[0] == top), lambda name: class_ancestry(name, written)
