"""Policies applied by a call: ``retry(...)(fn)``, ``r = Retrying(...); r(fn)``, ``r.call(fn)``,
``Retrying(...).call(fn)``, ``r = self._get_retryer(); r(fn)`` with the method returning one,
``retry(fn)`` and tenacity's ``fn.retry_with(...)``."""

from __future__ import annotations

from typing import TYPE_CHECKING, List

import libcst as cst

from resilint.libraries.retry_scopes.model import Policy, RetryScope
from resilint.libraries.retry_scopes.registry import libraries
from resilint.libraries.retry_scopes.tenacity import retry_with
from resilint.lint.nodes import positional_args
from resilint.lint.semantic import CallSite, FunctionInfo, Instance

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.recogniser import Recogniser


def apply_all(rec: Recogniser) -> None:
    for call in rec.model.calls:
        node = call.node
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "retry_with":
            retry_with(rec, call)
            continue
        # retry(...)(fn) / Retrying(...)(fn, ...)
        if isinstance(func, cst.Call) and id(func) in rec.by_node:
            _apply(rec, rec.by_node[id(func)], call)
            continue
        # r = Retrying(...); r(fn, ...) / r.call(fn) / r.wraps(fn)
        target = func
        if isinstance(func, cst.Attribute) and func.attr.value in ("call", "wraps", "__call__"):
            target = func.value
        if isinstance(target, cst.Call) and target is not func and id(target) in rec.by_node:
            policy = rec.by_node[id(target)]  # ``Retrying(...).call(fn)``, made where it is used
            if _applied_by_method(policy, func):
                _apply(rec, policy, call)
        elif isinstance(target, (cst.Name, cst.Attribute)):
            assigned = rec.follow(target, call.scope, call.order)
            if isinstance(assigned, cst.Call) and assigned is not node and id(assigned) not in rec.by_node:
                assigned = _made_by(rec, assigned, call)  # ``r = self._get_retryer()``
            if not (isinstance(assigned, cst.Call) and id(assigned) in rec.by_node):
                # ``self.retry_execute = retry(...)`` on one branch, the caller's policy on the
                # other: the policy the file makes is one the name may hold
                assigned = next((e for e in _assignments(rec, target, call) if id(e) in rec.by_node), assigned)
            if isinstance(assigned, cst.Call) and assigned is not node and id(assigned) in rec.by_node:
                policy = rec.by_node[id(assigned)]
                if policy.library in ("tenacity", "retrying", "backoff", "stamina", "resilint") and (
                    target is func or _applied_by_method(policy, func)
                ):
                    _apply(rec, policy, call)
        # tenacity.retry(fn) without arguments: ``retry(fn)``
        name = rec.names.get(id(node))
        if name in libraries().wraps_function and len(node.args) == 1 and node.args[0].keyword is None:
            value = rec.model.resolve(node.args[0].value, call.scope, call.order)
            if isinstance(value, FunctionInfo):
                policy = rec.by_node.get(id(node))
                if policy is not None:
                    rec.scopes.append(RetryScope(policy, "call", node, value.node, value))


def _assignments(rec: Recogniser, target: cst.BaseExpression, site: CallSite) -> List[cst.BaseExpression]:
    """Every expression a name, or an attribute of the file's class read off ``self``, is
    assigned anywhere in its scope (or class)."""
    model = rec.model
    if isinstance(target, cst.Name):
        binding = model.lookup(target.value, site.scope, site.order)
        bindings = binding.scope.bindings.get(target.value, []) if binding is not None else []
    else:
        owner = model.resolve(target.value, site.scope, site.order)  # type: ignore[attr-defined]
        if not isinstance(owner, Instance) or isinstance(owner.of, str):
            return []
        bindings = owner.of.instance_attributes.get(target.attr.value, [])  # type: ignore[attr-defined]
    return [b.expr for b in bindings if b.expr is not None]


def _made_by(rec: Recogniser, call: cst.Call, site: CallSite) -> cst.BaseExpression:
    """The policy a function of the file returns when ``call`` calls one whose only return is
    a policy (``def _get_retryer(self): return Retrying(...)``); else ``call``."""
    function = rec.model.resolve(call.func, site.scope, site.order)
    if not isinstance(function, FunctionInfo) or len(function.returns) != 1:
        return call
    returned = rec.follow(function.returns[0], function.scope, 1 << 62)
    return returned if isinstance(returned, cst.Call) and id(returned) in rec.by_node else call


def _applied_by_method(policy: Policy, func: cst.BaseExpression) -> bool:
    """``r.call(fn)`` of a tenacity ``Retrying`` (an iterator policy) or of retrying's
    ``Retrying``, whose ``call`` is how a policy object is applied."""
    if not isinstance(func, cst.Attribute):
        return False
    return (policy.library in ("tenacity", "retrying", "backoff", "stamina", "resilint") and policy.kind == "iterator") or (
        policy.library == "retrying" and func.attr.value == "call"
    )


def _apply(rec: Recogniser, policy: Policy, call: CallSite) -> None:
    positional = positional_args(call.node)
    if not positional:
        return
    value = rec.model.resolve(positional[0].value, call.scope, call.order)
    if isinstance(value, FunctionInfo):
        rec.scopes.append(RetryScope(policy, "call", call.node, value.node, value))
    else:
        rec.scopes.append(RetryScope(policy, "call", call.node))
