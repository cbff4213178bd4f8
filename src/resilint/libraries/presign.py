"""boto3 clients that only sign: ``generate_presigned_url``, ``generate_presigned_post`` and
``generate_db_auth_token`` compute a signature in the process and send nothing, so a client
used for nothing else never waits on the network and its timeouts cannot matter. Nor does
that of a client whose only use is to read what botocore resolved for it in the process
(``client.meta.endpoint_url``, ``.meta.region_name``, ``.meta.service_model``).

What the file shows of each client object it makes (``boto3.client(...)``, ``.resource``,
``Session().client``, botocore's ``create_client``), followed by the call that made it through
locals, ``self.attr``, module globals and functions of the file that return it:

* every call made through it (``s3.generate_presigned_url(...)``, ``s3.put_object(...)``,
  ``resource.meta.client.generate_presigned_post(...)``): a sign, or anything else;
* whether it leaves what the file shows: kept in a module global or an attribute, returned, or
  passed to a call. Then other modules may use it, and the project pass reads their calls.
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Tuple

import libcst as cst

from resilint.libraries.clients import CLIENT_CALLS
from resilint.libraries.object_uses import object_uses
from resilint.lint.canonical import returned_type
from resilint.lint.semantic import Instance, Scope, SemanticModel
from resilint.lint.traversal import iter_nodes

SIGNS: FrozenSet[str] = frozenset({"generate_presigned_url", "generate_presigned_post", "generate_db_auth_token"})
# The calls that make a botocore client (or a boto3 resource, whose meta.client is one).
CONSTRUCTIONS: FrozenSet[str] = frozenset(name for name, spec in CLIENT_CALLS.items() if spec.botocore_config)
CLIENT_TYPES: FrozenSet[str] = frozenset(returned_type(name) for name in CONSTRUCTIONS)


def names_no_service(service: Optional[str]) -> bool:
    """Whether the name a client construction is given cannot be a botocore service's (those
    are lowercase words and hyphens: ``s3``, ``sagemaker-runtime``): the object is another
    library's session of the same name (``session.client("azure.keyvault.secrets.SecretClient")``)."""
    return service is not None and _SERVICE_NAME.fullmatch(service) is None


_SERVICE_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


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
    reads_meta: bool = False  # something it resolved is read (``client.meta.endpoint_url``)


def uses_of(model: SemanticModel, made: cst.CSTNode) -> Uses:
    """What the file does with the client object the call ``made`` makes."""
    flags = _uses(model).get(id(made))
    return Uses(**flags) if flags is not None else Uses()


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
    return uses.signs or uses.reads_meta


def _uses(model: SemanticModel) -> Dict[int, Dict[str, bool]]:
    def compute() -> Dict[int, Dict[str, bool]]:
        made = frozenset(id(site.node) for site, name in model.iter_calls() if name in CONSTRUCTIONS)
        found = object_uses(model, made, lambda path, site: "signs" if signs(path) else "other")
        unused = frozenset(key for key, flags in found.items() if not flags)
        for key in _meta_readers(model, unused):
            found[key]["reads_meta"] = True
        return found

    return model.derived(_uses, compute)


def _meta_readers(model: SemanticModel, made: FrozenSet[int]) -> Iterator[int]:
    """Of the clients made by the calls ``made`` (by ``id``), those whose ``meta`` is read
    (``client.meta.endpoint_url``) in what a call is given or a name is set to; ``meta.client``
    is the client itself, which may be used in any way from there, and is not counted."""
    if not made:
        return
    read: List[Tuple[cst.BaseExpression, Scope, int]] = []
    for site in model.calls:
        read.extend((arg.value, site.scope, site.order) for arg in site.node.args)
    for scope in (model.module_scope, *(function.scope for function in model.functions)):
        for group in scope.bindings.values():
            read.extend((binding.expr, scope, binding.order) for binding in group if binding.expr is not None)
    for expr, scope, order in read:
        for node in iter_nodes(expr):
            if (
                isinstance(node, cst.Attribute) and node.attr.value != "client"
                and isinstance(node.value, cst.Attribute) and node.value.attr.value == "meta"
            ):
                for value in model.resolve_all(node.value.value, scope, order):
                    if isinstance(value, Instance) and value.site is not None and id(value.site) in made:
                        yield id(value.site)
