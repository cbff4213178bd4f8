"""What a file does with the client objects some of its calls make, followed through locals,
``self.attr``, module globals and functions of the file that return them:

* every call made through an object (``s3.generate_presigned_url(...)``, ``session.get(...)``,
  ``resource.meta.client.upload_file(...)``), as the caller's ``classify`` names it from the
  attributes the call takes from the object and the call itself;
* whether the object leaves what the file shows: kept in a module global or an attribute,
  returned, or passed to a call that may be a project function. Then other modules may use
  it, and the project pass reads their calls (``ProjectGraph.uses_of``). Passed to a library's
  call (``S3Transfer(client)``), it is used in a way nobody can tell: "other".

Asked only of the objects a rule needs (``made``): following every call's receiver costs a
resolution per call of the file.
"""

from __future__ import annotations

from typing import Callable, Dict, FrozenSet, Iterator, List, Sequence, Set, Tuple

import libcst as cst

from resilint.lint.semantic import Binding, CallSite, ClassInfo, FunctionInfo, Instance, QName, SemanticModel

# What a call through an object is, from the attributes it takes (``("get",)``) and the call.
Classify = Callable[[Tuple[str, ...], CallSite], str]

# Callees that are no project function: an object passed to one may be used in any way.
_LIBRARIES = frozenset({"builtins", "boto3", "botocore", "functools", "operator"})


def object_uses(model: SemanticModel, made: FrozenSet[int], classify: Classify) -> Dict[int, Dict[str, bool]]:
    """For each object made by a call node in ``made`` (by ``id``): the uses ``classify`` named
    ("other" for a call through it that it cannot tell, and for a library call it is passed
    to), and "escapes" when other modules may reach it."""
    return _Uses(model, made, classify).found


class _Uses:
    def __init__(self, model: SemanticModel, made: FrozenSet[int], classify: Classify) -> None:
        self.model = model
        self.found: Dict[int, Dict[str, bool]] = {key: {} for key in made}
        if not made:
            return
        for site in model.calls:
            for key, use in self._calls_through(site, made, classify):
                self.found[key][use] = True
        for key in self._stored(made):
            self.found[key]["escapes"] = True

    def _objects(self, expr: cst.BaseExpression, site: CallSite, made: FrozenSet[int]) -> List[int]:
        return [
            id(value.site) for value in self.model.resolve_all(expr, site.scope, site.order)
            if isinstance(value, Instance) and value.site is not None and id(value.site) in made
        ]

    def _calls_through(self, site: CallSite, made: FrozenSet[int], classify: Classify) -> Iterator[Tuple[int, str]]:
        """The objects a call is made through, or passed to ("escapes" or "other")."""
        path: List[str] = []
        expr: cst.BaseExpression = site.node.func
        while isinstance(expr, cst.Attribute):
            path.insert(0, expr.attr.value)
            expr = expr.value
            objects = self._objects(expr, site, made)
            if objects:
                use = classify(tuple(path), site)
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
        pass follows; a builtin or a library's function may use the object in any way."""
        callee = self.model.resolve(site.node.func, site.scope, site.order)
        if isinstance(callee, (FunctionInfo, ClassInfo)):
            return True
        name = self.model.name_of(callee) if isinstance(callee, QName) else None
        return name is not None and name.split(".", 1)[0] not in _LIBRARIES

    def _stored(self, made: FrozenSet[int]) -> Set[int]:
        """The objects kept where other modules can reach them: a module global, a class or
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


def _made_by(values: Sequence[object], made: FrozenSet[int]) -> Iterator[int]:
    for value in values:
        if isinstance(value, Instance) and value.site is not None and id(value.site) in made:
            yield id(value.site)
