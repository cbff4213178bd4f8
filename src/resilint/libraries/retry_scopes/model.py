"""What a retry scope is: the policy (how to retry), the scope (what is retried), their settings,
and the constants the RES2xx rules compare them with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple, Union

import libcst as cst

from resilint.lint.semantic import FunctionInfo, Scope
from resilint.lint.summary import Decided

UNKNOWN = "unknown"
Limit = Union[int, float, None, str]  # a number, None (unbounded) or "unknown"

# wait kinds
WAIT_NONE = "none"
WAIT_FIXED = "fixed"
WAIT_EXPONENTIAL = "exponential"
WAIT_JITTERED = "jittered"
# retry_on kinds
ON_ANY = "any"
ON_SPECIFIC = "specific"
ON_STATUS = "status"
ON_RESULT = "result"  # a condition of the code's own, no failure (a poll)
ON_FAILED_RESULT = "failed-result"  # a result that reports a failure (``if not send(...)``)

# Prefilter: a file that mentions none of these holds no library retry scope (tenacity,
# backoff, stamina, retrying, celery, urllib3, httpx, resilint.runtime). Hand-written loops are
# too common a shape to filter on; each rule adds what its own finding in one cannot lack
# (a POST, a sleep, a ``while``, an ``except``).
LIBRARY_TRIGGERS: Tuple[str, ...] = ("retry", "Retry", "retries", "backoff", "stamina")


@dataclass(eq=False)
class Setting:
    """One aspect of a policy: its kind, the node that sets it (None: the library default),
    a human description, and whether it was inherited from another policy (``retry_with``)."""

    kind: str
    node: Optional[cst.CSTNode] = None
    detail: str = ""
    inherited: bool = False
    # An unknown wait that is whatever this function returns (a helper of another module):
    # the project pass judges it from that function's summary.
    via: Optional[str] = None
    # With ``via``: the kind of the delay handed to that function, which may sleep it, and the
    # keyword it is handed as ("": the first positional argument).
    slept: str = ""
    slept_as: str = ""


@dataclass(eq=False)
class Policy:
    library: str  # tenacity | backoff | stamina | retrying | resilint | celery | urllib3 | httpx | loop | recursion
    kind: str  # decorator | iterator | call | task | task-retry | urllib3-retry | adapter | pool | transport | loop | recursion
    node: cst.CSTNode  # the definition: where findings about the policy are reported
    attempts: Setting = field(default_factory=lambda: Setting(UNKNOWN))
    # attempts.kind: "bounded" | "unbounded" | "unknown"; ``max_attempts`` the number if known
    max_attempts: Limit = UNKNOWN
    time_limit: Limit = UNKNOWN  # seconds, None = no time limit, "unknown"
    wait: Setting = field(default_factory=lambda: Setting(UNKNOWN))
    # A hand-written loop's other pauses without a random term, beside ``wait`` (one per
    # failure path: ``except StallError: sleep(2)`` … ``except HTTPError: sleep(2)``)
    more_waits: Tuple[Setting, ...] = ()
    retry_on: Setting = field(default_factory=lambda: Setting(UNKNOWN))
    # Catch-all handlers (bare ``except:``, ``except Exception``) that go round again in a
    # hand-written loop or around celery's ``self.retry()`` (RES205 reports on them).
    handlers: Tuple[cst.ExceptHandler, ...] = ()
    # Non-idempotent methods this policy retries (urllib3 ``allowed_methods``), if any.
    unsafe_methods: Optional[Setting] = None
    # True when it never repeats a non-idempotent request whose outcome is unknown: the library
    # refuses to (resilint's runtime with ``method=``/``idempotent=False``, httpx connect
    # retries), or a loop goes round only on statuses with which the server refused it (429).
    guards_non_idempotent: bool = False
    scope: Optional[Scope] = None  # the scope the definition is written in
    order: int = 0
    # The ``try`` statements whose failures set the retry off (a hand-written loop's handlers
    # that go round, the ``except`` around celery's ``self.retry()``); empty: any failure in
    # the code it covers does. A call outside them that fails leaves the scope unretried.
    tries: Tuple[cst.CSTNode, ...] = ()
    # A hand-written loop whose handlers swallow the failure: once its attempts are spent it
    # raises nothing, so a layer around it never sees the failure it retried.
    gives_up_quietly: bool = False
    # Or the exception class it raises then (``raise GaveUp()`` right after the loop).
    gives_up_raising: Optional[str] = None
    # A tenacity policy that retries on the returned value only (``retry_if_result``): an
    # attempt that fails is not repeated, so it waits for a state to change rather than
    # retrying a failure (no crowd of failed clients to spread, no failure to outlast).
    polls_result: bool = False
    # A count the file cannot read, that the attempts follow: the expression it starts from (a
    # decorator factory's parameter, another module's constant) and what to add to its value
    # (``count = kwargs.pop("count", retries)`` counted down while above 0: ``retries + 1``).
    counted_from: Optional[Tuple[cst.BaseExpression, int]] = None
    # It may retry a request refused without effect (429, 408, 425): False only where the code
    # says it never does (urllib3 ``Retry`` ignoring ``Retry-After``, none of them listed).
    retries_refusals: bool = True
    # Facts a parameter of the loop's function decides, per call (``parameter_facts.py``).
    decided_by: Tuple[Decided, ...] = ()

    @property
    def unbounded(self) -> bool:
        return self.max_attempts is None and self.time_limit is None

    @property
    def limit_anchor(self) -> cst.CSTNode:
        """Where a missing limit is reported (and fixed): the setting that should bound it, else
        the definition; for a loop its condition (``while True``) or its iterator."""
        node = self.attempts.node if self.attempts.node is not None else self.node
        if isinstance(node, cst.While):
            return node.test
        if isinstance(node, cst.For):
            return node.iter
        return node


@dataclass(eq=False)
class RetryScope:
    """A policy applied to code: ``covers`` is the FunctionDef or the loop that is re-run."""

    policy: Policy
    kind: str  # decorator | iterator | call | task | loop | adapter | pool | transport
    node: cst.CSTNode  # where the policy meets the code (decorator, for loop, call)
    covers: Optional[cst.CSTNode] = None
    function: Optional[FunctionInfo] = None

    @property
    def library(self) -> str:
        return self.policy.library


@dataclass
class RetryScopes:
    policies: List[Policy]
    scopes: List[RetryScope]
    # Retry decorators on functions of the file that do only local work: no retry of a call
    # out, so no rule sees them; moving a project onto the runtime moves them too.
    local: List[RetryScope] = field(default_factory=list)
    # POST or PATCH that a ``Retry`` subclass of the file adds to the methods it retries, for
    # every instance made without ``allowed_methods=`` (wherever it is made).
    unsafe_defaults: List[Setting] = field(default_factory=list)

    def covering(self) -> List[RetryScope]:
        return [s for s in self.scopes if s.covers is not None]


def bounded_kind(attempts: Limit, seconds: Limit) -> str:
    if isinstance(attempts, (int, float)) or isinstance(seconds, (int, float)):
        return "bounded"
    if attempts is None and seconds is None:
        return "unbounded"
    return UNKNOWN


def describe(scope_or_policy: Union[RetryScope, Policy]) -> str:
    """A short human name for a scope's policy: "a tenacity retry", "a hand-written retry loop"."""
    policy = scope_or_policy.policy if isinstance(scope_or_policy, RetryScope) else scope_or_policy
    if policy.library == "loop":
        return "a hand-written retry loop"
    if policy.library == "recursion":
        return "a task that queues itself again" if policy.kind == "requeue" else "a retry by recursion"
    if policy.library == "celery":
        return "celery's task retry"
    if policy.library == "resilint":
        return "resilint's retry"
    return f"a {policy.library} retry"
