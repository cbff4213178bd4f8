"""What the tests in a loop check: an HTTP status (a failed call, retried on a bad one), or the
state of something polled (a job that is not finished yet: waited for, not retried)."""

from __future__ import annotations

import re
from typing import Callable, Iterable, List, Optional

import libcst as cst

from resilint.lint.nodes import dotted_name, expression_nodes, number_of, string_of

# Names that hold the state of polled work: ``job.status``, ``state``, ``is_done()``, ``r["phase"]``.
_STATE_WORDS = re.compile(
    r"status|state|phase|done|ready|complete|finish|running|pending|progress|validated|confirmed|settled|available",
    re.I,
)
# Strings that report how a call went, not where a job is.
_OUTCOMES = frozenset({"ok", "success", "error", "failure"})


def status_polarity(
    test: cst.BaseExpression, follow: Optional[Callable[[cst.BaseExpression], cst.BaseExpression]] = None,
) -> Optional[str]:
    """"good" when the test is true for a successful HTTP status, "bad" for a failed one.
    ``follow``: what a name of codes was assigned (``RETRY_STATUSES = (429, 503)``)."""
    negate = False
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        negate = not negate
        test = test.expression
    polarity = None
    if isinstance(test, cst.Attribute) and test.attr.value == "ok":
        polarity = "good"
    elif isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        left = test.left
        if not (isinstance(left, cst.Attribute) and left.attr.value in ("status_code", "status", "status_int", "code")):
            return None
        target = test.comparisons[0]
        comparator = target.comparator
        if follow is not None and isinstance(comparator, (cst.Name, cst.Attribute)):
            comparator = follow(comparator)
        codes = status_codes(comparator)
        if not codes:
            return None
        operator = target.operator
        good_codes = all(200 <= c < 300 for c in codes)
        if isinstance(operator, (cst.Equal, cst.In)):
            polarity = "good" if good_codes else "bad"
        elif isinstance(operator, (cst.NotEqual, cst.NotIn)):
            polarity = "bad" if good_codes else "good"
        elif isinstance(operator, (cst.GreaterThanEqual, cst.GreaterThan)) and codes[0] >= 300:
            polarity = "bad"
        elif isinstance(operator, (cst.LessThan, cst.LessThanEqual)) and codes[0] >= 300:
            polarity = "good"
        else:
            return None
        if polarity == "good" and not good_codes and isinstance(operator, (cst.Equal, cst.In)):
            polarity = "bad"
    else:
        return None
    if negate:
        polarity = "bad" if polarity == "good" else "good"
    return polarity


def status_codes(node: cst.BaseExpression) -> List[int]:
    values: List[int] = []
    elements: Iterable[cst.BaseExpression]
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        elements = [e.value for e in node.elements]
    else:
        elements = [node]
    for element in elements:
        number = number_of(element)
        if isinstance(number, int) and 100 <= number < 600:
            values.append(number)
        else:
            return []
    return values


def polls_state(test: cst.BaseExpression) -> bool:
    """A test of a polled state rather than of a failure: it compares with a state string
    (``job.status == "done"``, ``state in ("SUCCEEDED", "FAILED")``), compares a measured value
    with a threshold (``profit <= limit``), or reads a state-like name (``job.is_done()``,
    ``r.json()["ready"]``, ``r.get("validated")``). An HTTP status check, or a comparison with an outcome
    (``resp["status"] == "ok"``), is a check for failure instead; so is a test of the result
    itself (``if result:``, ``if row is not None:``)."""
    if status_polarity(test) is not None:
        return False
    texts = [
        text
        for node in expression_nodes(test) if isinstance(node, cst.Comparison)
        for side in [node.left] + [c.comparator for c in node.comparisons]
        for text in _texts(side)
    ]
    if texts:
        return not all(text.strip().lower() in _OUTCOMES for text in texts)
    for node in expression_nodes(test):
        if isinstance(node, cst.Comparison) and any(
            isinstance(c.operator, (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual))
            for c in node.comparisons
        ):
            return True  # a measured value crossing a threshold: a monitor, not a failure check
        if isinstance(node, cst.Comparison) and _awaits_a_held_value(node):
            return True
    # ``resp.status_code not in RETRYABLE_STATUS``: a set of HTTP codes, not a state
    codes = {
        id(inner) for node in expression_nodes(test) if isinstance(node, cst.Comparison)
        and (dotted_name(node.left) or "").endswith("status_code")
        for c in node.comparisons for inner in expression_nodes(c.comparator)
    }
    for node in expression_nodes(test):
        if id(node) in codes:
            continue
        if isinstance(node, (cst.Name, cst.Attribute)):
            text = dotted_name(node)
            if text and _STATE_WORDS.search(text.rsplit(".", 1)[-1]) and not text.endswith("status_code"):
                return True
        elif _STATE_WORDS.search(_key(node) or ""):
            return True
    return False


def _awaits_a_held_value(comparison: cst.Comparison) -> bool:
    """``newsum == checksum``: a polled value compared with one the code already holds (two
    names, neither a constant, a status or an outcome), so the loop waits until a remote state
    reaches it, which a failed call does not decide."""
    if len(comparison.comparisons) != 1 or not isinstance(comparison.comparisons[0].operator, (cst.Equal, cst.NotEqual)):
        return False
    sides = [dotted_name(comparison.left), dotted_name(comparison.comparisons[0].comparator)]
    return all(
        side and not side.isupper() and side not in ("None", "True", "False")
        and not _FAILURE_NAMES.search(side.rsplit(".", 1)[-1])
        for side in sides
    )


# Names a comparison with which checks a call's outcome rather than a polled state.
_FAILURE_NAMES = re.compile(r"status|code|ok$|error|result|response|success|fail|expected", re.IGNORECASE)


def _key(node: cst.CSTNode) -> Optional[str]:
    """The key a state is read by: ``r["ready"]``, ``r.get("validated")``."""
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        return string_of(node.slice[0].slice.value)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get" and node.args:
        return string_of(node.args[0].value)
    return None


def _texts(node: cst.BaseExpression) -> List[str]:
    """The string literals a comparison side is made of (``"done"``, ``("A", "B")``)."""
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        found = [_texts(e.value) for e in node.elements]
        return [t for part in found for t in part] if found and all(found) else []
    text = string_of(node)
    return [text] if text is not None else []
