"""Which AWS service errors botocore's own retries never end in, so that a layer retrying only
those does not multiply a botocore client's retries (RES204).

botocore retries, in each of its retry modes (``legacy``, ``standard``, ``adaptive``; the
lists of ``botocore/retries/standard.py`` and ``botocore/data/_retry.json``):

* connection errors and read timeouts (``botocore.exceptions.ConnectionError``,
  ``HTTPClientError`` and their subclasses);
* responses with a 5xx status (500, 502, 503, 504; 509 and 429 in legacy mode);
* the throttling and transient error codes below, whatever their status;
* errors a service model marks ``retryable``, and a few special cases (STS's
  ``IDPCommunicationError``, S3's ``BadDigest``, a DynamoDB CRC32 mismatch).

An error it retries may still reach the caller, once the attempts are spent. A modelled error
(``client.exceptions.ResourceNotFoundException``), or a ``ClientError`` whose handler goes round
on a given code only, is among those unless its code is none of the above. The status of a
modelled error is in the service model, not in the code: a code is taken as retried when a
service answers it with a 5xx or 429 status or marks it ``retryable`` (the names the pattern
below does not cover are listed, from botocore 1.43's models), or when its name says the server
failed, throttled or timed out.
"""

from __future__ import annotations

import re
from typing import List, Optional, Sequence, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.statements import block, has_continue, leaves, small_statements
from resilint.lint.nodes import string_of
from resilint.lint.semantic import Scope, SemanticModel

# Error codes botocore retries (standard and legacy modes, every service).
_RETRIED_CODES = frozenset({
    "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
    "TooManyRequestsException", "ProvisionedThroughputExceededException", "TransactionInProgressException",
    "RequestLimitExceeded", "BandwidthLimitExceeded", "LimitExceededException", "RequestThrottled", "SlowDown",
    "PriorRequestNotComplete", "EC2ThrottledException", "RequestTimeout", "RequestTimeoutException",
    "IDPCommunicationError", "BadDigest", "ReplicatedWriteConflictException",
})
# Names of server-side failures: services answer these with a 5xx status.
_SERVER_FAILURE = re.compile(
    r"Internal|Unavailable|Throttl|Timeout|TooMany|LimitExceeded|Server|^Service(Exception|Error)?$|Failure|Fault"
    r"|Dependen|Capacity|Conflict|Concurren|Gateway|SlowDown|Busy|NotReady|Retryable",
)
# Modelled errors a service answers with a 5xx or 429 status, or marks ``retryable``, whose names
# do not say so (botocore 1.43's service models).
_RETRIED_ELSEWHERE = frozenset({
    "AccessDeniedException", "BulkLoadIdNotFoundException", "CancelledByUserException",
    "ConstraintViolationException", "EC2AccessDeniedException", "EC2UnexpectedException",
    "ENILimitReachedException", "InvalidRuntimeException", "InvalidSecurityGroupIDException",
    "InvalidSubnetIDException", "InvalidTokenException", "InvalidZipFileException", "KMSAccessDeniedException",
    "KMSDisabledException", "KMSInvalidStateException", "KMSNotFoundException", "LoopDetectedException",
    "PolicyEvaluation", "PolicyEvaluationException", "PriorRequestNotCompleteException",
    "RangeNotSatisfiableException", "RateLimitError", "ResourceContention", "ResourceQuotaExceededException",
    "S3Exception", "ServiceQuotaExceededException", "SubnetIPAddressLimitReachedException", "TestFunctionFailed",
    "UnprocessableEntityException", "UnsupportedOperationException", "ValidationException",
})
# Statuses botocore retries, for the numeric codes of responses without a body (S3's ``HEAD``).
_RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504, 509})

_BOTO = ("botocore.", "boto3.")
# The name an error with a given code is caught by (``client.exceptions.NoSuchKey``), which a
# ``ClientError`` handler that goes round on that code only stands for.
_MODELLED = "botocore.client.BaseClient.exceptions."


def never_retried(name: str) -> bool:
    """A botocore client's modelled error (``botocore.client.BaseClient.exceptions.NoSuchKey``,
    ``boto3.resource.meta.client.exceptions.ResourceNotFoundException``) whose code botocore's
    retries never retry, so they never end in it."""
    if not name.startswith(_BOTO):
        return False
    owner, _, code = name.rpartition(".")
    if not owner.endswith(".exceptions") or owner == "botocore.exceptions" or code in ("ClientError", ""):
        return False
    if code.isdigit():
        return int(code) not in _RETRIED_STATUSES and int(code) < 500
    return code not in _RETRIED_CODES and code not in _RETRIED_ELSEWHERE and not _SERVER_FAILURE.search(code)


def _is_client_error(name: Optional[str]) -> bool:
    return name is not None and name.startswith(_BOTO) and name.endswith(".exceptions.ClientError")


def codes_retried(
    model: SemanticModel, handler: cst.ExceptHandler, scope: Scope, order: int,
) -> Optional[List[str]]:
    """The errors a ``ClientError`` handler goes round on, as the names of their modelled classes,
    when it tests the error's code and re-raises every other one:
    ``if e.response["Error"]["Code"] != "ResourceNotFoundException": raise`` then a pause, or
    ``if code == "ResourceNotFoundException": sleep(); continue`` then ``raise``. None when the
    handler is not one of those (it goes round on any code)."""
    if handler.type is None or handler.name is None or not isinstance(handler.name.name, cst.Name):
        return None
    if not _is_client_error(model.qualified_name(handler.type, scope, order)):
        return None
    error = handler.name.name.value
    body = block(handler.body)
    held = set()  # names the code is assigned to: ``code = e.response["Error"]["Code"]``
    for index, stmt in enumerate(body):
        if isinstance(stmt, cst.If):
            tested = _tested_codes(model, stmt.test, error, held, scope, order)
            if tested is None or stmt.orelse is not None:
                return None
            codes, equal = tested
            inside, after = block(stmt.body), body[index + 1:]
            if not equal and _raises(inside):
                return [_MODELLED + code for code in codes]
            if equal and (not leaves(inside) or has_continue(inside)) and after and _raises(after):
                return [_MODELLED + code for code in codes]
            return None
        smalls = small_statements(stmt)
        if not smalls:
            return None
        for small in smalls:
            if isinstance(small, (cst.Raise, cst.Return, cst.Break, cst.Continue)):
                return None
            if (isinstance(small, cst.Assign) and len(small.targets) == 1
                    and isinstance(small.targets[0].target, cst.Name) and _reads_code(small.value, error)):
                held.add(small.targets[0].target.value)
    return None


def _raises(stmts: Sequence[cst.BaseStatement]) -> bool:
    """The block ends by raising (the error, or another one)."""
    smalls = small_statements(stmts[-1]) if stmts else ()
    return bool(smalls) and isinstance(smalls[-1], cst.Raise)


def _tested_codes(
    model: SemanticModel, test: cst.BaseExpression, error: str, held: set, scope: Scope, order: int,
) -> Optional[Tuple[List[str], bool]]:
    """The codes a test compares the error's code with, and whether it is true for them."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    target = test.comparisons[0]
    left, right = test.left, target.comparator
    if not (_reads_code(left, error) or (isinstance(left, cst.Name) and left.value in held)):
        return None
    operator = target.operator
    if isinstance(operator, (cst.Equal, cst.In)):
        equal = True
    elif isinstance(operator, (cst.NotEqual, cst.NotIn)):
        equal = False
    else:
        return None
    value = model.followed(right, scope, order)
    elements = [e.value for e in value.elements] if isinstance(value, (cst.Tuple, cst.List, cst.Set)) else [value]
    if isinstance(operator, (cst.Equal, cst.NotEqual)) and len(elements) != 1:
        return None
    codes = [string_of(element) for element in elements]
    if not codes or any(code is None or not code for code in codes):
        return None
    return [code for code in codes if code], equal


def _reads_code(node: cst.BaseExpression, error: str) -> bool:
    """``e.response["Error"]["Code"]``, ``e.response.get("Error", {}).get("Code")``."""
    inner = _read_key(node, "Code")
    outer = _read_key(inner, "Error") if inner is not None else None
    return (isinstance(outer, cst.Attribute) and outer.attr.value == "response"
            and isinstance(outer.value, cst.Name) and outer.value.value == error)


def _read_key(node: Optional[cst.BaseExpression], key: str) -> Optional[cst.BaseExpression]:
    """What ``node`` reads ``key`` from (``x["key"]``, ``x.get("key", ...)``), else None."""
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        return node.value if string_of(node.slice[0].slice.value) == key else None
    if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get"
            and node.args and string_of(node.args[0].value) == key):
        return node.func.value
    return None
