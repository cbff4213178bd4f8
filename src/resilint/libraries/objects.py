"""What every request on one object gets from the object itself, judged where the file makes
it: retries (an SDK client, a retrying adapter or transport), a timeout (a ``Session`` subclass
or an adapter that fills one in), an idempotency key in the session's own headers. The summary
keeps these facts with the object, so that they reach every module the object travels to."""

from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst

from resilint.libraries.http_requests import KEY_HEADER, RequestFinder
from resilint.libraries.self_retrying import ClientLayer, instance_layer
from resilint.libraries.sessions import object_key, object_sets_timeout, receiver_keys
from resilint.lint.nodes import statements_in
from resilint.lint.semantic import Instance, SemanticModel

ObjectFacts = Tuple[Optional[ClientLayer], bool, str]


def object_facts(model: SemanticModel, value: Instance) -> Optional[ObjectFacts]:
    """(its retry layer, whether it sets a timeout, "stable" when its headers carry an
    idempotency key), or None when the file shows none of them."""
    layer = instance_layer(model, value)
    sets_timeout = object_sets_timeout(model, value)
    key = "stable" if session_has_key(model, value) else ""
    if layer is None and not sets_timeout and not key:
        return None
    return layer, sets_timeout, key


def session_has_key(model: SemanticModel, value: Instance) -> bool:
    """The session's own headers get an ``Idempotency-Key`` (``s.headers.update({...})``,
    ``s.headers["Idempotency-Key"] = ...``): every request on it sends the same one."""
    if value.site is None or (model.text is not None and "dempotency" not in model.text.lower()):
        return False
    wanted = object_key(value)
    finder = RequestFinder(model)
    for site in model.calls:
        func = site.node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in ("update", "setdefault")):
            continue
        headers = func.value
        if not (isinstance(headers, cst.Attribute) and headers.attr.value == "headers"):
            continue
        if wanted not in receiver_keys(headers.value, model, site.scope, site.order) or not site.node.args:
            continue
        if func.attr.value == "setdefault":
            name = finder.header_name(site.node.args[0].value, site.scope, site.order)
            if name is not None and name.lower() == KEY_HEADER:
                return True
        elif finder.find_key(site.node.args[0].value, site.scope, site.order, site) not in (None, False):
            return True
    scope = model.module_scope
    for node in statements_in(model.module):  # module-level ``s.headers["Idempotency-Key"] = ...``
        if not isinstance(node, cst.Assign):
            continue
        for target in node.targets:
            subscript = target.target
            if not (isinstance(subscript, cst.Subscript) and isinstance(subscript.value, cst.Attribute)
                    and subscript.value.attr.value == "headers" and len(subscript.slice) == 1
                    and isinstance(subscript.slice[0].slice, cst.Index)):
                continue
            if wanted not in receiver_keys(subscript.value.value, model, scope, 1 << 62):
                continue
            name = finder.header_name(subscript.slice[0].slice.value, scope, 1 << 62)
            if name is not None and name.lower() == KEY_HEADER:
                return True
    return False
