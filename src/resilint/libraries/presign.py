"""boto3 clients that only sign: ``generate_presigned_url``, ``generate_presigned_post`` and
``generate_db_auth_token`` compute a signature in the process and send nothing, so a client
used for nothing else never waits on the network and its timeouts cannot matter.

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
from typing import Dict, FrozenSet, Optional, Sequence

import libcst as cst

from resilint.libraries.clients import CLIENT_CALLS
from resilint.libraries.object_uses import object_uses
from resilint.lint.canonical import returned_type
from resilint.lint.semantic import Instance, SemanticModel

SIGNS: FrozenSet[str] = frozenset({"generate_presigned_url", "generate_presigned_post", "generate_db_auth_token"})
# The calls that make a botocore client (or a boto3 resource, whose meta.client is one).
CONSTRUCTIONS: FrozenSet[str] = frozenset(name for name, spec in CLIENT_CALLS.items() if spec.botocore_config)
CLIENT_TYPES: FrozenSet[str] = frozenset(returned_type(name) for name in CONSTRUCTIONS)


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
    return uses.signs


def _uses(model: SemanticModel) -> Dict[int, Dict[str, bool]]:
    def compute() -> Dict[int, Dict[str, bool]]:
        made = frozenset(id(site.node) for site, name in model.iter_calls() if name in CONSTRUCTIONS)
        return object_uses(model, made, lambda path, site: "signs" if signs(path) else "other")

    return model.derived(_uses, compute)
