"""Django's model signals: a receiver connected to ``post_save`` (``@receiver(post_save,
sender=Engagement)`` or ``post_save.connect(handler, sender=Engagement)``) runs inside every
``save()`` of that model, ``Engagement.objects.create(...)`` included, in the caller's frame:
within the caller's transaction, holding its locks. The local pass lists a module's receivers
(``model_receivers``); the project pass runs them where a model is saved, created or deleted
(``ProjectGraph.callee``)."""

from __future__ import annotations

from typing import Iterator, Optional, Set, Tuple

import libcst as cst

from resilint.lint.nodes import keyword_args, string_of
from resilint.lint.semantic import CallSite, Scope, SemanticModel
from resilint.lint.summary import MODEL_LABEL, PROJECT_SIGNAL, USER_MODEL

# Each model signal, by what sends it: a row saved (``create`` saves too) or deleted.
_SENT_BY = {
    f"django.db.models.signals.{when}_{what}": what for when in ("pre", "post") for what in ("save", "delete")
}
_RECEIVER = frozenset({"django.dispatch.receiver", "django.dispatch.dispatcher.receiver"})
_CONNECT = frozenset(f"{signal}.connect" for signal in _SENT_BY)
_ANY_SENDER = ""
_USER_MODEL_GETTERS = frozenset({"django.contrib.auth.get_user_model"})
_USER_MODEL_SETTINGS = frozenset({"django.conf.settings.AUTH_USER_MODEL"})


def model_receivers(model: SemanticModel) -> Iterator[Tuple[str, str, str]]:
    """(what sends the signal: "save" or "delete", or ``PROJECT_SIGNAL`` and the name of a
    project's own signal, sent by its ``send()``; the sender model's qualified name, or "" for
    every model; the receiver's qualified name) for each receiver the module connects."""
    if model.text is not None and "signals" not in model.text and "receiver" not in model.text and ".connect(" not in model.text:
        return
    for info in model.functions:
        outer = info.scope.parent or info.scope
        for decorator in info.decorators:
            node = decorator.decorator
            if not (isinstance(node, cst.Call) and node.args and model.qualified_name(node.func, outer, 1 << 62) in _RECEIVER):
                continue
            sender = _sender(model, node, outer, 1 << 62)
            if sender is not None:
                for sent_by in _sent_by(model, node.args[0].value, outer, 1 << 62):
                    yield sent_by, sender, f"{model.module_name}.{info.qualname}" if model.module_name else info.qualname
    for site in model.calls:
        node = site.node
        # ``connect(handler, ...)`` or ``connect(receiver=handler, ...)``
        given = node.args[0] if node.args and not node.args[0].keyword else keyword_args(node)[0].get("receiver")
        name = model.call_name(site) if given is not None else None
        if name is None or not name.endswith(".connect"):
            continue
        signal = name[: -len(".connect")]
        sent_by = _SENT_BY.get(signal) or (_project_signal(signal) if _names_project(model, node.func) else None)
        if sent_by is not None:
            handler = model.qualified_name(given.value, site.scope, site.order) or _module_global(model, given.value, site)
            sender = _sender(model, node, site.scope, site.order)
            if handler is not None and sender is not None:
                yield sent_by, sender, handler


def _module_global(model: SemanticModel, expr: cst.BaseExpression, site: CallSite) -> Optional[str]:
    """The qualified name of a module's own global ``expr`` names (an object connected as a
    receiver, ``notifier = SubmissionNotifier()``), for the project pass to tell what it calls."""
    if not isinstance(expr, cst.Name):
        return None
    binding = model.lookup(expr.value, site.scope, site.order)
    if binding is None or binding.scope is not model.module_scope or binding.expr is None:
        return None
    return f"{model.module_name}.{expr.value}" if model.module_name else expr.value


def _project_signal(name: str) -> str:
    return PROJECT_SIGNAL + name


def _names_project(model: SemanticModel, func: cst.BaseExpression) -> bool:
    """``document_updated.connect`` on a name of the project, not of a library (Django's
    ``request_started`` and the like are never sent by the project's code)."""
    return isinstance(func, cst.Attribute) and not (model.qualified_name(func.value, model.module_scope, 1 << 62) or "").startswith("django.")


def _sent_by(model: SemanticModel, expr: cst.BaseExpression, scope: Scope, order: int) -> Set[str]:
    """What sends the signals ``expr`` names (one, or a list of them): a model signal's saves
    or deletes, a project signal's ``send()``."""
    elements = [e.value for e in expr.elements] if isinstance(expr, (cst.List, cst.Tuple)) else [expr]
    found: Set[str] = set()
    for name in (model.qualified_name(e, scope, order) for e in elements):
        if name in _SENT_BY:
            found.add(_SENT_BY[name])
        elif name is not None and not name.startswith("django."):
            found.add(_project_signal(name))
    return found


def _sender(model: SemanticModel, call: cst.Call, scope: Scope, order: int) -> Optional[str]:
    """The model ``sender=`` names, "" when none is given; None when it cannot be read."""
    given = keyword_args(call)[0].get("sender")
    if given is None:
        return _ANY_SENDER
    made = model.followed(given.value, scope, order)
    if isinstance(made, cst.Call) and isinstance(made.func, cst.Attribute) and made.func.attr.value == "get_model":
        # ``self.get_model("IPAddress")`` in an ``AppConfig``, ``apps.get_model("net", "IPAddress")``
        label = string_of(made.args[-1].value) if made.args else None
        return _labelled(label) if label else None
    if isinstance(made, cst.Call) and model.qualified_name(made.func, scope, order) in _USER_MODEL_GETTERS:
        return USER_MODEL
    label = string_of(made)
    if label is not None:
        return _labelled(label) if "." in label else None  # a lazy sender, ``"app_label.Model"``
    name = model.qualified_name(given.value, scope, order)
    return USER_MODEL if name in _USER_MODEL_SETTINGS else name


def _labelled(label: str) -> str:
    """The sender a model's label names (``"net.IPAddress"`` or ``"IPAddress"``)."""
    return USER_MODEL if label.lower() == "auth.user" else MODEL_LABEL + label.rsplit(".", 1)[-1]
