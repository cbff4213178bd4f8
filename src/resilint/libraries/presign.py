"""boto3 clients that only sign: ``generate_presigned_url`` and ``generate_presigned_post``
compute a signature in the process and send nothing, so a client used for nothing else never
waits on the network and its timeouts cannot matter.

What the file shows of each client object it makes (``boto3.client(...)``, ``.resource``,
``Session().client``, botocore's ``create_client``), followed by the call that made it through
locals, ``self.attr``, module globals and functions of the file that return it:

* every call made through it (``s3.generate_presigned_url(...)``, ``s3.put_object(...)``,
  ``resource.meta.client.generate_presigned_post(...)``): a sign, or anything else;
* whether it leaves what the file shows: kept in a module global or an attribute, returned, or
  passed to a call. Then other modules may use it, and the project pass reads their calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.libraries.clients import CLIENT_CALLS
from resilint.lint.canonical import returned_type
from resilint.lint.semantic import Binding, CallSite, ClassInfo, FunctionInfo, Instance, QName, SemanticModel

SIGNS: FrozenSet[str] = frozenset({"generate_presigned_url", "generate_presigned_post"})
# The calls that make a botocore client (or a boto3 resource, whose meta.client is one).
CONSTRUCTIONS: FrozenSet[str] = frozenset(name for name, spec in CLIENT_CALLS.items() if spec.botocore_config)
CLIENT_TYPES: FrozenSet[str] = frozenset(returned_type(name) for name in CONSTRUCTIONS)
# Callees that are no project function: a client passed to one may be used in any way.
_LIBRARIES = frozenset({"builtins", "boto3", "botocore", "functools", "operator"})


def signs(path: Sequence[str]) -> bool:
    """Whether the attributes a call takes from a client (``("generate_presigned_url",)``,
    ``("meta", "client", "generate_presigned_post")``) lead to a signing method."""
    return len(path) in (1, 3) and path[-1] in SIGNS and tuple(path[:-1]) in ((), ("meta", "client"))


@dataclass(frozen=True)
class Uses:
    """What the file does with one client object."""

    signs: bool = False  # some call signs with it
    other: bool = False  # some other call is made through it (a request, or one we cannot tell)
    escapes: bool = False  # other modules may reach it


def uses_of(model: SemanticModel, made: cst.CSTNode) -> Uses:
    """What the file does with the client object the call ``made`` makes."""
    return _Clients.of(model).uses.get(id(made), Uses())


def is_client(model: SemanticModel, value: Instance) -> bool:
    """Whether an object is a botocore client (or a boto3 resource) the file makes."""
    return value.site is not None and model.type_name(value) in CLIENT_TYPES


def signs_only(model: SemanticModel, made: cst.CSTNode) -> Optional[bool]:
    """True when the file signs with the client ``made`` makes and does nothing else with it,
    and nothing outside the file can reach it; None when other modules may (the project pass
    decides); False otherwise."""
    uses = uses_of(model, made)
    if uses.other:
        return False
    if uses.escapes:
        return None
    return uses.signs


class _Clients:
    @staticmethod
    def of(model: SemanticModel) -> "_Clients":
        return model.derived(_Clients, lambda: _Clients(model))

    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        made = {id(site.node) for site, name in model.iter_calls() if name in CONSTRUCTIONS}
        self.uses: Dict[int, Uses] = {}
        if not made:
            return
        found: Dict[int, Dict[str, bool]] = {key: {} for key in made}
        for site in model.calls:
            for key, use in self._calls_through(site, made):
                found[key][use] = True
        for key in self._stored(made):
            found[key]["escapes"] = True
        self.uses = {key: Uses(**flags) for key, flags in found.items()}

    def _objects(self, expr: cst.BaseExpression, site: CallSite, made: Set[int]) -> List[int]:
        return [
            id(value.site) for value in self.model.resolve_all(expr, site.scope, site.order)
            if isinstance(value, Instance) and value.site is not None and id(value.site) in made
        ]

    def _calls_through(self, site: CallSite, made: Set[int]) -> Iterator[Tuple[int, str]]:
        """The clients a call is made through ("signs" or "other"), or passed to ("escapes")."""
        path: List[str] = []
        expr: cst.BaseExpression = site.node.func
        while isinstance(expr, cst.Attribute):
            path.insert(0, expr.attr.value)
            expr = expr.value
            objects = self._objects(expr, site, made)
            if objects:
                use = "signs" if signs(path) else "other"
                for key in objects:
                    yield key, use
                break
        passed = [key for arg in site.node.args for key in self._objects(arg.value, site, made)]
        if passed:
            use = "escapes" if self._may_be_project(site) else "other"
            for key in passed:
                yield key, use

    def _may_be_project(self, site: CallSite) -> bool:
        """Whether the callee may be a project function, whose uses of its parameter the project
        pass follows; a builtin or a library's function (``S3Transfer(client)``) may use the
        client in any way."""
        callee = self.model.resolve(site.node.func, site.scope, site.order)
        if isinstance(callee, (FunctionInfo, ClassInfo)):
            return True
        name = self.model.name_of(callee) if isinstance(callee, QName) else None
        return name is not None and name.split(".", 1)[0] not in _LIBRARIES

    def _stored(self, made: Set[int]) -> Set[int]:
        """The clients kept where other modules can reach them: a module global, a class or
        instance attribute, a function's return value."""
        model = self.model
        bindings: List[Binding] = [b for group in model.module_scope.bindings.values() for b in group]
        for cls in model.classes:
            bindings += [b for group in cls.scope.bindings.values() for b in group]
            bindings += [b for group in cls.instance_attributes.values() for b in group]
        found: Set[int] = set()
        for binding in bindings:
            if binding.expr is not None or binding.entered is not None:
                found.update(_made_by(model.binding_values(binding), made))
        for function in model.functions:
            found.update(_made_by(model.returned_values(function), made))
        return found


def _made_by(values: Sequence[object], made: Set[int]) -> Iterator[int]:
    for value in values:
        if isinstance(value, Instance) and value.site is not None and id(value.site) in made:
            yield id(value.site)
