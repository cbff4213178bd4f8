"""Small readers of LibCST nodes that know nothing about any library: call arguments, literal
values, dotted names, source text, statement walks. Rules and the library layer share them."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union

import libcst as cst

from resilint.lint.traversal import iter_nodes

# The definitions whose bodies run when they are called, not where they are written, and the
# ``try`` statements: tested by class (``node.__class__ in DEFINITIONS``; LibCST's node classes
# are ABCs, slow to ``isinstance``), and what ``iter_nodes(..., stop_at=DEFINITIONS)`` does not enter.
DEFINITIONS = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
TRIES = (cst.Try, cst.TryStar)


def keyword_args(call: cst.Call) -> Tuple[Dict[str, cst.Arg], bool]:
    """keyword → Arg, and whether ``**kwargs`` may add more."""
    found: Dict[str, cst.Arg] = {}
    star = False
    for arg in call.args:
        if arg.star == "**":
            star = True
        elif arg.keyword is not None:
            found[arg.keyword.value] = arg
    return found, star


def positional_args(call: cst.Call) -> List[cst.Arg]:
    out = []
    for arg in call.args:
        if arg.keyword is not None or arg.star == "**":
            break
        if arg.star == "*":
            break
        out.append(arg)
    return out


def call_argument(call: cst.Call, keyword: str, position: Optional[int] = None) -> Optional[cst.Arg]:
    keywords, _ = keyword_args(call)
    if keyword in keywords:
        return keywords[keyword]
    if position is not None:
        positional = positional_args(call)
        if position < len(positional):
            return positional[position]
    return None


def parameter_names(params: cst.Parameters) -> List[str]:
    """The names a def binds from its arguments, ``*args`` and ``**kwargs`` included."""
    every = list(params.posonly_params) + list(params.params) + list(params.kwonly_params)
    every += [star for star in (params.star_arg, params.star_kwarg) if isinstance(star, cst.Param)]
    return [param.name.value for param in every]


def args_name(function: cst.CSTNode) -> Optional[str]:
    """The name of a def's ``*`` parameter, if it has one."""
    star = function.params.star_arg if isinstance(function, cst.FunctionDef) else None
    return star.name.value if isinstance(star, cst.Param) else None


def kwargs_name(function: cst.CSTNode) -> Optional[str]:
    """The name of a def's ``**`` parameter, if it has one."""
    star = function.params.star_kwarg if isinstance(function, cst.FunctionDef) else None
    return star.name.value if isinstance(star, cst.Param) else None


def is_none(node: Optional[cst.CSTNode]) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def is_false(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Name):
        return node.value == "False"
    if isinstance(node, (cst.Integer, cst.Float)):
        return number_of(node) == 0
    return False


def is_true(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Name):
        return node.value == "True"
    if isinstance(node, (cst.Integer, cst.Float)):
        return number_of(node) not in (0, None)
    return False


def number_of(node: cst.BaseExpression) -> Optional[Union[int, float]]:
    try:
        if isinstance(node, cst.Integer):
            return int(node.value.replace("_", ""), 0)
        if isinstance(node, cst.Float):
            return float(node.value.replace("_", ""))
    except ValueError:
        return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        value = number_of(node.expression)
        return -value if value is not None else None
    return None


def string_keyed(node: cst.Dict) -> Optional[Dict[str, cst.BaseExpression]]:
    """The values of a dict literal by their keys, when every key is a string literal (None
    when one is not, or a ``**`` spreads another mapping in)."""
    found: Dict[str, cst.BaseExpression] = {}
    for element in node.elements:
        key = string_of(element.key) if isinstance(element, cst.DictElement) else None
        if key is None:
            return None
        found[key] = element.value
    return found


def string_of(node: Optional[cst.CSTNode]) -> Optional[str]:
    """The value of a string literal (implicit concatenations included), else None."""
    if isinstance(node, cst.SimpleString):
        text = node.value
        quote = text[-1]
        # a plain one-quoted literal without escapes is its inner text (literal_eval parses)
        if text[0] == quote and "\\" not in text and text[1] != quote:
            return text[1:-1]
        try:
            value = node.evaluated_value
        except Exception:  # pragma: no cover - defensive
            return None
        return value if isinstance(value, str) else None
    if isinstance(node, cst.ConcatenatedString):
        left, right = string_of(node.left), string_of(node.right)
        return left + right if left is not None and right is not None else None
    return None


def spelled_as_class(name: Optional[str]) -> bool:
    """A dotted name whose last part is spelled as a class is (``tests.conn.RecordingConnection``,
    ``zeep.Client``)."""
    return (name or "").rpartition(".")[2][:1].isupper()


def dotted_name(node: Optional[cst.CSTNode]) -> Optional[str]:
    """``a.b.c`` for a chain of names and attributes, else None."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def expression_nodes(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node of an expression, not entering lambdas (their body runs later, if ever)."""
    return iter_nodes(node, stop_at=(cst.Lambda,))


_EMPTY_MODULE = cst.Module([])
# How to read a node's text from the file being analysed, when its tree was built from ``ast``
# (``cst_from_ast``): such a tree has no whitespace to generate code from.
_source_of: Optional[Callable[[cst.CSTNode], Optional[str]]] = None


@contextmanager
def reading_source(source_of: Optional[Callable[[cst.CSTNode], Optional[str]]]) -> Iterator[None]:
    """Within: ``code_of`` reads the nodes ``source_of`` knows from the file."""
    global _source_of
    previous, _source_of = _source_of, source_of
    try:
        yield
    finally:
        _source_of = previous


_CONTINUATION = re.compile(r"\\\r?\n")


def code_of(node: cst.CSTNode, limit: Optional[int] = 60) -> str:
    """The node's source on one line, shortened to ``limit`` characters (None: whole)."""
    text = _source_of(node) if _source_of is not None else None
    if text is None:
        try:
            text = _EMPTY_MODULE.code_for_node(node)
        except Exception:  # pragma: no cover - defensive
            return ""
    text = " ".join(_CONTINUATION.sub(" ", text).split())  # (a line continued with ``\`` is one line)
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


def last_name(node: cst.CSTNode) -> str:
    """The rightmost name of a receiver: ``self.http_client`` → ``http_client``, ``make()`` → ``make``."""
    if isinstance(node, cst.Attribute):
        return node.attr.value
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Call):
        return last_name(node.func)
    return ""


def statements_in(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every statement and small statement under ``node``, not entering nested defs/classes."""
    stack: List[cst.CSTNode] = list(getattr(getattr(node, "body", None), "body", ()) or ())
    if isinstance(node, cst.Module):
        stack = list(node.body)
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, (cst.FunctionDef, cst.ClassDef)):
            continue
        if isinstance(current, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            stack.extend(current.body)
            continue
        for attr in ("body", "orelse", "finalbody", "handlers"):
            child = getattr(current, attr, None)
            if child is None:
                continue
            if isinstance(child, (list, tuple)):
                stack.extend(child)
            elif isinstance(child, (cst.IndentedBlock, cst.SimpleStatementSuite)):
                stack.extend(child.body)
            elif isinstance(child, (cst.Else, cst.Finally, cst.If)):
                stack.append(child)


def module_assignments(module: cst.Module) -> Iterator[Tuple[str, cst.BaseExpression, cst.CSTNode, bool]]:
    """The module-level assignments of a value to a name (``CACHES = {...}``, also annotated,
    also in ``if``/``try``/``with`` blocks), in source order: the name, the value, the
    assignment, and whether it is conditional (in an ``if`` or ``try``)."""
    for statement, conditional in module_statements(module.body, False):
        for small in statement.body:
            if isinstance(small, cst.Assign):
                targets = [t.target for t in small.targets]
                value: Optional[cst.BaseExpression] = small.value
            elif isinstance(small, cst.AnnAssign):
                targets, value = [small.target], small.value
            else:
                continue
            for target in targets:
                if isinstance(target, cst.Name) and value is not None:
                    yield target.value, value, small, conditional


def module_statements(
    body: Iterable[cst.CSTNode], conditional: bool,
) -> Iterator[Tuple[cst.BaseSuite, bool]]:
    """The lines of simple statements at the module's top level, with those in ``if``/``try``/
    ``with`` blocks (conditional: ``if`` and ``try``)."""
    for statement in body:
        if isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            yield statement, conditional
        elif isinstance(statement, cst.If):
            yield from module_statements(_suite_lines(statement.body), True)
            if statement.orelse is not None:
                yield from module_statements(
                    [statement.orelse] if isinstance(statement.orelse, cst.If) else _suite_lines(statement.orelse.body), True,
                )
        elif isinstance(statement, cst.Try):
            blocks = [statement.body] + [h.body for h in statement.handlers]
            blocks += [b.body for b in (statement.orelse, statement.finalbody) if b is not None]
            for block in blocks:
                yield from module_statements(_suite_lines(block), True)
        elif isinstance(statement, cst.With):
            yield from module_statements(_suite_lines(statement.body), conditional)


def _suite_lines(block: cst.BaseSuite) -> List[cst.CSTNode]:
    return [block] if isinstance(block, cst.SimpleStatementSuite) else list(block.body)


def dotted_strings(value: cst.BaseExpression) -> Tuple[str, ...]:
    """The string constants in ``value`` that read as dotted paths (a backend's import path,
    not the environment variable's name): a setting read from the environment with a default,
    or chosen by a condition, names its candidates so."""
    found = []
    for node in iter_nodes(value):
        if isinstance(node, cst.SimpleString):
            text = node.evaluated_value
            if isinstance(text, str) and "." in text and " " not in text:
                found.append(text)
    return tuple(found)


_WRITES = frozenset({cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Del})


def written_into(tree: cst.CSTNode, held: Callable[[cst.BaseExpression], bool]) -> bool:
    """Whether ``tree`` writes into the dict that the expressions ``held`` accepts name
    (``self.headers``, ``retry_args``): an item assigned or deleted, an augmented assignment, a
    method other than a read called on it, or the dict handed to a function that may write into
    it (a keyword argument is a request's own; ``dict(self.headers)`` only copies it)."""
    copied: Set[int] = set()
    for node in iter_nodes(tree):
        kind = node.__class__  # by class: the node classes are slow ABCs
        if kind is cst.Call and (dotted_name(node.func) or "").rsplit(".", 1)[-1] in _COPIES:
            copied.update(id(arg) for arg in node.args)
            continue
        if kind in _WRITES:
            targets = [t.target for t in node.targets] if kind is cst.Assign else [node.target]
            if any(isinstance(t, cst.Subscript) and held(t.value) for t in targets):
                return True
            if kind is cst.AugAssign and held(node.target):
                return True  # ``self.headers |= {"Idempotency-Key": key}``
        elif kind is cst.Call and isinstance(node.func, cst.Attribute) and held(node.func.value):
            if node.func.attr.value not in ("get", "items", "keys", "values", "copy"):
                return True
        elif kind is cst.Arg and id(node) not in copied and held(node.value) and node.keyword is None and not node.star:
            return True
    return False


# Calls that make a new mapping of the one they are given, and leave it as it was.
_COPIES = frozenset({"dict", "CaseInsensitiveDict", "copy", "deepcopy", "OrderedDict"})


def keys_set_on(function: cst.CSTNode, mapping: str) -> Iterator[Tuple[str, cst.BaseExpression]]:
    """The string keys a function's own statements set on the mapping named ``mapping`` (a
    name, or an attribute such as ``self.managers``) (``kwargs["timeout"] = ...``,
    ``kwargs.setdefault("timeout", ...)``), with their values (nested functions are theirs)."""
    body = function.body if isinstance(function, cst.FunctionDef) else function
    for node in iter_nodes(body, stop_at=DEFINITIONS):
        if isinstance(node, cst.Assign) and len(node.targets) == 1:
            target = node.targets[0].target
            if (isinstance(target, cst.Subscript) and dotted_name(target.value) == mapping
                    and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index)):
                key = string_of(target.slice[0].slice.value)
                if key is not None:
                    yield key, node.value
        elif (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "setdefault"
              and dotted_name(node.func.value) == mapping and len(node.args) == 2):
            key = string_of(node.args[0].value)
            if key is not None:
                yield key, node.args[1].value
        elif (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "update"
              and dotted_name(node.func.value) == mapping):
            yield from _keys_updated(node)


def _keys_updated(call: cst.Call) -> Iterator[Tuple[str, cst.BaseExpression]]:
    """The keys ``mapping.update(timeout=30)`` or ``mapping.update({"timeout": 30})`` sets."""
    for arg in call.args:
        if arg.keyword is not None:
            yield arg.keyword.value, arg.value
        elif not arg.star and isinstance(arg.value, cst.Dict):
            for element in arg.value.elements:
                key = string_of(element.key) if isinstance(element, cst.DictElement) else None
                if key is not None:
                    yield key, element.value  # type: ignore[union-attr]
