"""What the tests in a loop check: an HTTP status (a failed call, retried on a bad one), or the
state of something polled (a job that is not finished yet: waited for, not retried)."""

from __future__ import annotations

import ast
import re
from http import HTTPStatus
from typing import TYPE_CHECKING, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst

from resilint.libraries.retry_scopes.statements import block
from resilint.lint.nodes import call_argument, dotted_name, expression_nodes, is_none, keyword_args, number_of, string_of
from resilint.lint.semantic import FunctionInfo, Scope
from resilint.lint.traversal import iter_nodes

if TYPE_CHECKING:
    from resilint.libraries.retry_scopes.model import Policy
    from resilint.libraries.retry_scopes.recogniser import Recogniser
    from resilint.lint.semantic import SemanticModel

# Names that hold the state of polled work: ``job.status``, ``state``, ``is_done()``, ``r["phase"]``.
_STATE_WORDS = re.compile(
    r"status|state|phase|done|ready|complete|finish|running|pending|progress|validated|confirmed|settled|available"
    r"|(?<!retry_)(?<!retries_)(?<!attempt_)(?<!attempts_)limit_reached",  # a capacity the work waits for
    re.I,
)
# Strings that report how a call went, not where a job is.
_OUTCOMES = frozenset({"ok", "success", "error", "failure"})


def status_polarity(
    test: cst.BaseExpression, follow: Optional[Callable[[cst.BaseExpression], cst.BaseExpression]] = None,
) -> Optional[str]:
    """"good" when the test is true for a successful HTTP status, "bad" for a failed one.
    ``follow``: what a name of codes was assigned (``RETRY_STATUSES = (429, 503)``). A
    conjunction with a success check (``r.status_code == 200 and "id" in r.json()``) is true
    only on a success too, and one with a failure check (``r.status_code == 429 and attempt <
    3``) only on a failure."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        sides = (status_polarity(test.left, follow), status_polarity(test.right, follow))
        if "good" in sides:
            return "good"
        # ``r.status_code in (429, 503) and attempt < limit``: true only on a failure too, while
        # a count allows (not a failure joined with what the answer says, ``and body["reason"]``)
        other, status = (test.right, test.left) if sides[0] == "bad" else (test.left, test.right)
        return "bad" if "bad" in sides and None in sides and (_counts(other) or _allows(other) or _present(other, status)) else None
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        # ``r.status_code not in RETRY or attempt >= 5``: leave when it worked, or once spent
        sides = (status_polarity(test.left, follow), status_polarity(test.right, follow))
        if "good" in sides:
            other = test.right if sides[0] == "good" else test.left
            if _counts(other):
                return "good"
    negate = False
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        negate = not negate
        test = test.expression
    polarity = None
    if isinstance(test, cst.Attribute) and test.attr.value == "ok":
        polarity = "good"
    elif isinstance(test, cst.Comparison) and _success_range(test):
        polarity = "good"
    elif isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        if not _reads_status_of(test.left, _STATUS_NAMES):
            return None
        target = test.comparisons[0]
        comparator = target.comparator
        if follow is not None and isinstance(comparator, (cst.Name, cst.Attribute)):
            comparator = follow(comparator)
        codes = status_codes(comparator)
        operator = target.operator
        if codes and isinstance(operator, (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)):
            codes = [_bound_below(codes[0], operator)]  # ``< 300``, ``<= 299``: every 2xx below
        if not codes or all(300 <= c < 400 for c in codes) and not isinstance(operator, (cst.LessThan, cst.GreaterThanEqual)):
            return None  # a redirect is no failure: following it sends another request
        good_codes = all(200 <= c < 300 for c in codes)
        if not good_codes and any(200 <= c < 300 for c in codes):
            return None  # ``not in {200, 429}``: neither a success nor a failure by itself
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


def outcome_polarity(test: cst.BaseExpression) -> Optional[str]:
    """"good" for a test that the answer says the call worked (``res == "OK"``, ``response ==
    b"Ok"``, ``r["status"] == "success"``), "bad" for its negation or for a test that it says
    it failed (``res["result"] == "error"``, ``"error" in res["result"]``): the reply, or one
    field of it, compared with a word of success or failure, which only a reply to this
    request can be (a polled state is another word, ``"done"``, ``"RUNNING"``, or read deeper
    in the answer)."""
    negate = False
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        negate = not negate
        test = test.expression
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return None
    operator = test.comparisons[0].operator
    sides = (test.left, test.comparisons[0].comparator)
    words = [_word(side) for side in sides]
    if isinstance(operator, (cst.In, cst.NotIn)):
        # ``"error" in res["result"]``: the word looked for in the reply
        if words[0] is None or words[1] is not None:
            return None
        reply, word, same = sides[1], words[0], isinstance(operator, cst.In)
    elif isinstance(operator, (cst.Equal, cst.NotEqual)):
        if sum(word is not None for word in words) != 1:
            return None
        reply = sides[0] if words[1] is not None else sides[1]
        word, same = words[0] or words[1], isinstance(operator, cst.Equal)
    else:
        return None
    if word not in _SUCCESS_WORDS and word not in _FAILURE_WORDS:
        return None
    if isinstance(reply, (cst.Subscript, cst.Attribute)):
        reply = reply.value
    if isinstance(reply, (cst.Subscript, cst.Attribute)):
        return None  # a field deep in the answer (``r["statuses"][0]["status"]``): a job's state
    good = (same != negate) == (word in _SUCCESS_WORDS)
    return "good" if good else "bad"


# What a reply says when the request worked.
_SUCCESS_WORDS = frozenset({"ok", "success", "succeeded", "successful"})
# What it says when it did not (``res["result"] == "error"``).
_FAILURE_WORDS = frozenset({"error", "fail", "failed", "failure"})


def _word(node: cst.BaseExpression) -> Optional[str]:
    """The text of a string or bytes literal, stripped and lower-cased."""
    if isinstance(node, cst.SimpleString) and "b" in node.prefix.lower():
        try:
            value = ast.literal_eval(node.value)
        except (ValueError, SyntaxError):
            return None
        return value.decode("latin-1").strip().lower() if isinstance(value, bytes) else None
    text = string_of(node)
    return text.strip().lower() if text is not None else None


def _allows(test: cst.BaseExpression) -> bool:
    """``and retry``, ``and self.retry_on_limit``: a count or a switch of the caller's that
    lets the failure be retried, not something the answer says."""
    return isinstance(test, cst.Name) or (
        isinstance(test, cst.Attribute) and isinstance(test.value, cst.Name) and test.value.value == "self"
    )


def _present(test: cst.BaseExpression, status: cst.BaseExpression) -> bool:
    """``rce.response is not None`` beside ``rce.response.status_code == 401``: the answer whose
    status is read is there, nothing it says."""
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.IsNot) \
            and is_none(test.comparisons[0].comparator):
        test = test.left
    subject = dotted_name(test)
    read = status.left if isinstance(status, cst.Comparison) else None
    return subject is not None and isinstance(read, cst.Attribute) and dotted_name(read.value) == subject


def _counts(test: cst.BaseExpression) -> bool:
    """``attempt < max_retries``, ``retries <= 3``: an ordering comparison of names and numbers."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return False
    if not isinstance(test.comparisons[0].operator, (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)):
        return False
    return all(
        isinstance(side, (cst.Name, cst.Attribute, cst.Integer))
        for side in (test.left, test.comparisons[0].comparator)
    )


def _bound_below(code: int, operator: cst.BaseCompOp) -> int:
    """The first status an ordering comparison with ``code`` puts above the line: ``< 300`` and
    ``>= 300`` draw it at 300, ``<= 299`` and ``> 299`` at 300 too."""
    return code + 1 if isinstance(operator, (cst.LessThanEqual, cst.GreaterThan)) else code


def _success_range(test: cst.Comparison) -> bool:
    """``200 <= r.status_code < 300`` (``<= 299``): true for every success and nothing else."""
    if len(test.comparisons) != 2 or not _reads_status_of(test.comparisons[0].comparator, _STATUS_NAMES):
        return False
    low, high = status_codes(test.left), status_codes(test.comparisons[1].comparator)
    first, second = test.comparisons[0].operator, test.comparisons[1].operator
    if len(low) != 1 or len(high) != 1 or not isinstance(second, (cst.LessThan, cst.LessThanEqual)):
        return False
    lowest = low[0] if isinstance(first, cst.LessThanEqual) else low[0] + 1 if isinstance(first, cst.LessThan) else None
    return lowest is not None and 100 <= lowest <= 200 and 300 <= _bound_below(high[0], second) <= 400


# Statuses with which a server says it did not act on the request: 401 and 407 (it was not
# authenticated: sent again with a fresh token), 403 (it refuses to fulfil it; exchanges answer
# it to a client over its rate limit), 408 (it did not receive it in time), 425 (too early to
# risk a replay), 429 (too many requests), and 418, which Binance and others answer to a client
# banned for sending too many.
REFUSAL_STATUSES = frozenset({401, 403, 407, 408, 418, 425, 429})


def status_membership(test: cst.BaseExpression) -> Optional[Tuple[List[int], bool]]:
    """``r.status_code in (200, 204)`` → ([200, 204], True); ``r.status_code != 400`` →
    ([400], False); None for any other test."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1) or not _reads_status_of(test.left, _STATUS_NAMES):
        return None
    target = test.comparisons[0]
    codes = status_codes(target.comparator)
    if not codes or not isinstance(target.operator, (cst.Equal, cst.In, cst.NotEqual, cst.NotIn)):
        return None
    return codes, isinstance(target.operator, (cst.Equal, cst.In))


def statuses_going_round(exits: Sequence[cst.BaseExpression]) -> Optional[Set[int]]:
    """The statuses with which a loop goes round, from the tests of the ``if``s that leave it
    (``if r.status_code in (200, 204): return``; ``if r.status_code != 400 or late: raise``: only
    400 goes round); None when they do not bound them."""
    allowed: Optional[Set[int]] = None
    left: Set[int] = set()
    for test in exits:
        sides = [test]
        while any(isinstance(side, cst.BooleanOperation) and isinstance(side.operator, cst.Or) for side in sides):
            sides = [part for side in sides for part in (
                (side.left, side.right) if isinstance(side, cst.BooleanOperation) and isinstance(side.operator, cst.Or) else (side,)
            )]
        for side in sides:  # it leaves when any side holds: going round, none does
            found = status_membership(side)
            if found is None:
                continue
            codes, inside = found
            if inside:
                left.update(codes)
            else:
                allowed = set(codes) if allowed is None else allowed & set(codes)
    return None if allowed is None else allowed - left


def refused_request(test: cst.BaseExpression, otherwise: bool = False) -> bool:
    """``r.status == 429``, ``response.status_code in (408, 429)``: true only when the server
    refused the request without acting on it, so sending it again repeats no effect.
    ``otherwise``: the test's false branch is the one read (``if r.status != 429: return r``).
    A conjunction with such a test (``r.status == 429 and rate_limit > 0``) holds only on a
    refusal too."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And) and not otherwise:
        return refused_request(test.left) or refused_request(test.right)
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return False
    left, target = test.left, test.comparisons[0]
    if not _reads_status_of(left, _REFUSAL_ATTRIBUTES):
        return False
    codes = status_codes(target.comparator)
    matches = (cst.NotEqual, cst.NotIn) if otherwise else (cst.Equal, cst.In)
    return isinstance(target.operator, matches) and bool(codes) and set(codes) <= REFUSAL_STATUSES


# What a status is read as: a response's attribute, or the key of the mapping a project's own
# fetch wrapper returns (``res["code"] == "429"`` on what ``self.sf.fetchUrl(url)`` gives back).
_STATUS_NAMES = frozenset({"status_code", "status", "status_int", "code"})
_STATUS_KEYS = frozenset({"status_code", "status", "code", "http_code", "status_int"})


# A status the code unpacked into a name of its own (``_, status_code = api.get(path)``).
_STATUS_VARIABLES = frozenset({"status", "statuscode", "httpstatus", "httpcode", "responsecode", "respcode", "responsestatus"})


def reads_status(node: cst.BaseExpression) -> bool:
    """``r.status_code``, ``code``, ``res["status"]``: an HTTP status, as the code reads it."""
    return _reads_status_of(node, _STATUS_NAMES)


def _reads_status_of(node: cst.BaseExpression, attributes: frozenset) -> bool:
    if isinstance(node, cst.Attribute):
        return node.attr.value in attributes
    if isinstance(node, cst.Name):
        name = node.value.lower().replace("_", "")
        return name in _STATUS_VARIABLES or (name == "code" and "code" in attributes)
    return (isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)
            and string_of(node.slice[0].slice.value) in _STATUS_KEYS)


def status_codes(node: cst.BaseExpression) -> List[int]:
    values: List[int] = []
    elements: Iterable[cst.BaseExpression]
    if isinstance(node, cst.IfExp):  # ``HTTPStatus.OK if last else HTTPStatus.PARTIAL_CONTENT``: either
        either = (status_codes(node.body), status_codes(node.orelse))
        return either[0] + either[1] if all(either) else []
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        elements = [e.value for e in node.elements]
    else:
        elements = [node]
    for element in elements:
        number = number_of(element)
        if number is None:
            number = _named_status(element)
        if number is None:
            text = string_of(element)  # a status kept as text: ``str(res.status_code)``
            number = int(text) if text is not None and len(text) == 3 and text.isdigit() else None
        if isinstance(number, int) and 100 <= number < 600:
            values.append(number)
        else:
            return []
    return values


_HTTP_CONSTANT = re.compile(r"^HTTP_(\d{3})(_|$)")  # starlette's and DRF's ``status.HTTP_429_TOO_MANY_REQUESTS``
_RATE_LIMITED = re.compile(r"RATE_?LIMIT|TOO_MANY_REQUESTS")


def _named_status(node: cst.BaseExpression) -> Optional[int]:
    """A status written by name: ``requests.codes.OK`` (or ``.ok``), ``httpx.codes.OK``,
    ``HTTPStatus.TOO_MANY_REQUESTS``, ``status.HTTP_200_OK``, a constant named for a rate limit."""
    text = dotted_name(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
    if text is None:
        return None
    owner, _, last = text.rpartition(".")
    match = _HTTP_CONSTANT.match(last)
    if match:
        return int(match.group(1))
    if last.isupper() and _RATE_LIMITED.search(last):
        return 429  # a constant of another module named for it (``RATE_LIMIT_RESPONSE_CODE``)
    if owner.rpartition(".")[2] in ("codes", "HTTPStatus"):
        member = HTTPStatus.__members__.get(last.upper())
        return int(member) if member is not None else None
    return None


def polls_state(test: cst.BaseExpression) -> bool:
    """A test of a polled state rather than of a failure: it compares with a state string
    (``job.status == "done"``, ``state in ("SUCCEEDED", "FAILED")``), compares a measured value
    with a threshold (``profit <= limit``), or reads a state-like name (``job.is_done()``,
    ``r.json()["ready"]``, ``r.get("validated")``). An HTTP status check, or a comparison with an outcome
    (``resp["status"] == "ok"``), is a check for failure instead; so is a test of the result
    itself (``if result:``, ``if row is not None:``). A success check joined with a state
    (``r.status_code == 200 and r.json()["state"] == "done"``) polls it; joined with a key it
    expects in the answer (``and "id" in reply``), it does not; tests joined by ``or`` poll a
    state when one of them does."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        sides = (test.left, test.right)
        if any(status_polarity(side) == "bad" for side in sides):
            return False  # a failure, while a limit allows (``r.status_code == 429 and attempt < 3``)
        if any(status_polarity(side) is not None for side in sides):
            return any(polls_state(side) for side in sides if status_polarity(side) is None and not _has_key(side))
    if status_polarity(test) is not None:
        return False
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        # ``r.status == 429 or r.status == 503``: a state only where a side reads one
        return polls_state(test.left) or polls_state(test.right)
    texts = compared_texts(test)
    if texts:
        return not all(text.strip().lower() in _OUTCOMES for text in texts)
    for node in expression_nodes(test):
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitAnd):
            return True  # a flag of the answer (``response.flags & dns.flags.AD``): its state
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


def _has_key(test: cst.BaseExpression) -> bool:
    """``"id" in reply``: whether the answer carries a key, not what state it reports."""
    return (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.In) and string_of(test.left) is not None)


def _awaits_a_held_value(comparison: cst.Comparison) -> bool:
    """``newsum == checksum``, ``current_version in versions``: a polled value compared with
    one the code already holds (two names, neither a constant, a status or an outcome), so the
    loop waits until a remote state reaches it, which a failed call does not decide."""
    if len(comparison.comparisons) != 1 or not isinstance(
        comparison.comparisons[0].operator, (cst.Equal, cst.NotEqual, cst.In, cst.NotIn)
    ):
        return False
    sides = [_held_name(comparison.left), _held_name(comparison.comparisons[0].comparator)]
    return all(
        side and not side.rsplit(".", 1)[-1].isupper() and side not in ("None", "True", "False")
        and not _FAILURE_NAMES.search(side.rsplit(".", 1)[-1])
        for side in sides
    )


def _held_name(side: cst.BaseExpression) -> Optional[str]:
    """The name a compared value is read from: itself, an item of it (``slot[0]``), what its
    ``get`` gives (``mapping.get(port)``), or a listing a call fetched (``cols.names()``,
    ``client.list().names()``, read as ``client.list.names``)."""
    if isinstance(side, cst.Subscript):
        side = side.value
    elif isinstance(side, cst.Call) and isinstance(side.func, cst.Attribute) and side.func.attr.value == "get":
        side = side.func.value
    parts: List[str] = []
    while isinstance(side, (cst.Call, cst.Attribute)):
        if isinstance(side, cst.Call):
            if side.args:
                return None
            side = side.func
        else:
            parts.append(side.attr.value)
            side = side.value
    return ".".join([side.value, *reversed(parts)]) if isinstance(side, cst.Name) else None


# Names a comparison with which checks a call's outcome rather than a polled state.
_FAILURE_NAMES = re.compile(r"status|code|ok$|error|result|response|success|fail|expected", re.IGNORECASE)


def _key(node: cst.CSTNode) -> Optional[str]:
    """The key a state is read by: ``r["ready"]``, ``r.get("validated")``."""
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        return string_of(node.slice[0].slice.value)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get" and node.args:
        return string_of(node.args[0].value)
    return None


def compared_sides(test: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """Each side of each comparison in ``test`` (``state`` and ``("A", "B")`` of ``state in
    ("A", "B")``)."""
    for node in expression_nodes(test):
        if isinstance(node, cst.Comparison):
            yield node.left
            yield from (c.comparator for c in node.comparisons)


def failed_branch(
    node: cst.If, follow: Optional[Callable[[cst.BaseExpression], cst.BaseExpression]] = None,
) -> Sequence[cst.BaseStatement]:
    """What an ``if`` on an HTTP status runs when the status failed: its body for a failure
    test (``if r.status_code == 429:``), its ``else:`` for a success test (not an ``elif``,
    which tests on); nothing for any other ``if``."""
    polarity = status_polarity(node.test, follow)
    if polarity == "bad":
        return block(node.body)
    if polarity == "good" and isinstance(node.orelse, cst.Else):
        return block(node.orelse.body)
    return ()


def tests_failed_state(test: cst.BaseExpression) -> bool:
    """``response.status == "failed"``, ``delivery.status == EventDeliveryStatus.FAILED``: a
    state compared only with words of failure, a failure the code saw in a result."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, (cst.Equal, cst.In))):
        return False
    comparator = test.comparisons[0].comparator
    words = [e.value for e in comparator.elements] if isinstance(comparator, (cst.Tuple, cst.List, cst.Set)) else [comparator]
    return bool(words) and all(
        (_word(word) if string_of(word) is not None else (word.attr.value.lower() if isinstance(word, cst.Attribute) else None))
        in _FAILURE_WORDS for word in words
    )


def compared_texts(test: cst.BaseExpression) -> List[str]:
    """The string literals ``test`` compares something with (``state in ("A", "B")``)."""
    return [text for side in compared_sides(test) for text in _texts(side)]


def _texts(node: cst.BaseExpression) -> List[str]:
    """The string literals a comparison side is made of (``"done"``, ``("A", "B")``)."""
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        found = [_texts(e.value) for e in node.elements]
        return [t for part in found for t in part] if found and all(found) else []
    text = string_of(node)
    return [text] if text is not None else []


# --- a catch-all retry that still gives up on the failed statuses it checks -----------------

_STATUS_ATTRIBUTES = frozenset({"status", "status_code", "status_int"})
# And an API error's copy of it, compared with a refusal's status (``ex.error_code == 429``).
_REFUSAL_ATTRIBUTES = _STATUS_ATTRIBUTES | {"error_code", "http_status"}


def stops_on_status(model: "SemanticModel", policy: "Policy") -> bool:
    """A retry of every exception that visibly gives up on failed HTTP statuses: backoff's
    ``giveup=`` a function of the file (or a lambda) that reads the error's status
    (``400 <= exc.status < 500``), or a loop that leaves with a response whose status it tested
    (``if not is_recoverable(r.status): return r``, ``if r.status_code == 404: return None``).
    Such a retry still repeats every other error, bugs included."""
    if policy.library == "backoff" and isinstance(policy.node, cst.Call):
        giveup = keyword_args(policy.node)[0].get("giveup")
        if giveup is None:
            return False
        scope, order = policy.scope or model.module_scope, policy.order
        value = giveup.value
        target = value if isinstance(value, cst.Lambda) else model.resolve(value, scope, order)
        node = target.node if isinstance(target, FunctionInfo) else target
        return isinstance(node, (cst.FunctionDef, cst.Lambda)) and any(
            isinstance(part, cst.Attribute) and part.attr.value in _STATUS_ATTRIBUTES for part in iter_nodes(node)
        )
    if policy.library == "loop" and isinstance(policy.node, (cst.For, cst.While)):
        body = policy.node.body.body if isinstance(policy.node.body, cst.IndentedBlock) else ()
        return _leaves_on_status(body, _status_verdicts(body), in_try=False)
    return False


def _reads_status(node: cst.CSTNode) -> bool:
    return any(isinstance(part, cst.Attribute) and part.attr.value in _STATUS_ATTRIBUTES for part in iter_nodes(node))


def _status_verdicts(body: Sequence[cst.BaseStatement]) -> Set[str]:
    """Names assigned what a call makes of a status: ``recoverable = is_recoverable(r.status)``."""
    names: Set[str] = set()
    nodes = (node for stmt in body for node in iter_nodes(stmt, stop_at=(cst.FunctionDef, cst.ClassDef, cst.Lambda)))
    for node in nodes:
        if (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name)
                and isinstance(node.value, cst.Call) and any(_reads_status(arg.value) for arg in node.value.args)):
            names.add(node.targets[0].target.value)
    return names


def _tests_status(test: cst.BaseExpression, verdicts: Set[str]) -> bool:
    """A test of a failed status: a comparison of a status with codes (``r.status_code == 404``,
    a success check left on the other branch aside), a call given a status, or a name holding
    what such a call returned."""
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    if status_polarity(test) == "bad":
        return True
    if isinstance(test, cst.Name):
        return test.value in verdicts
    return isinstance(test, cst.Call) and any(_reads_status(arg.value) for arg in test.args)


def _leaves_on_status(stmts: Sequence[cst.BaseStatement], verdicts: Set[str], in_try: bool) -> bool:
    """An ``if`` on a failed status whose branch returns or breaks (or raises outside a ``try``,
    where the catch-all handler would take the error back)."""
    for stmt in stmts:
        if isinstance(stmt, cst.If):
            branch = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else [stmt.body]
            last = branch[-1] if branch else None
            exits = (cst.Return, cst.Break) if in_try else (cst.Return, cst.Break, cst.Raise)
            if (_tests_status(stmt.test, verdicts) and isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite))
                    and last.body and isinstance(last.body[-1], exits)):
                return True
            continue
        if isinstance(stmt, (cst.Try, cst.TryStar)):
            inner = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ()
            if _leaves_on_status(inner, verdicts, in_try=True):
                return True
            if stmt.orelse is not None and isinstance(stmt.orelse.body, cst.IndentedBlock):
                if _leaves_on_status(stmt.orelse.body.body, verdicts, in_try):
                    return True
        elif isinstance(stmt, cst.With) and isinstance(stmt.body, cst.IndentedBlock):
            if _leaves_on_status(stmt.body.body, verdicts, in_try):
                return True
    return False


# Names of an attempts counter (``retries < 8``, ``self.request.retries >= 3``).
_ATTEMPTS = re.compile(r"attempt|retr|tries|tried", re.I)


def without_attempt_limits(test: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """The test without the parts joined by ``and`` that bound the attempts (``if not success
    and retries < 8:``): those limit the retry, they are no state it waits for. None when
    nothing else is left."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        left, right = without_attempt_limits(test.left), without_attempt_limits(test.right)
        if left is not None and right is not None:
            # (``not retried and r is not None and r.status_code == 401``: the first ``and`` holds a limit too)
            return test if left is test.left and right is test.right else test.with_changes(left=left, right=right)
        return left if left is not None else right
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(
        test.comparisons[0].operator, (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
    ) and any(_ATTEMPTS.search((dotted_name(side) or "").rsplit(".", 1)[-1]) for side in (test.left, test.comparisons[0].comparator)):
        return None
    # a once-only flag: ``not retried``, ``has_retried is None``
    flag = unset_flag(test, falsy=("None",))
    if isinstance(flag, (cst.Name, cst.Attribute)) and _ATTEMPTS.search((dotted_name(flag) or "").rsplit(".", 1)[-1]):
        return None
    return test


def unset_flag(test: cst.CSTNode, falsy: Tuple[str, ...] = ("None", "False")) -> Optional[cst.BaseExpression]:
    """``X`` of a test that requires it unset: ``not X``, ``X is None`` (or ``X is False``)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return test.expression
    if (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.Is)
            and dotted_name(test.comparisons[0].comparator) in falsy):
        return test.left
    return None


# Libraries whose requests may fail with the errors of another (requests re-raises some of
# urllib3's; botocore sends through urllib3; httpx through httpcore), by top-level module.
ERROR_FAMILIES = {
    "requests": "requests", "urllib3": "requests", "botocore": "requests", "boto3": "requests",
    "httpx": "httpx", "httpcore": "httpx", "aiohttp": "aiohttp", "smtplib": "smtplib",
    "ftplib": "ftplib", "poplib": "poplib", "imaplib": "imaplib", "redis": "redis",
    "psycopg2": "psycopg2", "psycopg": "psycopg", "pymysql": "pymysql", "sqlalchemy": "sqlalchemy",
    "grpc": "grpc", "elasticsearch": "elasticsearch", "opensearchpy": "opensearchpy", "pika": "pika",
    "paramiko": "paramiko", "websockets": "websockets",
}


def all_raised_on_polled_state(rec: Recogniser, classes: cst.BaseExpression, scope: Scope, order: int) -> bool:
    """Whether ``classes`` (a class or a tuple or list of them) are all errors the module
    raises only on a polled state (``raised_on_polled_state``)."""
    elements = [e.value for e in classes.elements] if isinstance(classes, (cst.Tuple, cst.List)) else [classes]
    return bool(elements) and all(raised_on_polled_state(rec, element, scope, order) for element in elements)


def raised_on_polled_state(rec: Recogniser, expr: cst.BaseExpression, scope: Scope, order: int) -> bool:
    """The module raises this error, and every time on the state it read (``if desc["Status"]
    in ("SUBMITTED", "STARTED"): raise StatementNotFinished``), never in an ``except`` handler:
    a job that is not done yet, not a failure passed on (nor a partial answer, ``if
    unprocessed: raise``, which a throttled service sends). Not a client library's own error
    (``raise requests.RequestException(...)``), which its requests raise when one fails too."""
    name = rec.expr_name(expr, scope, order)
    if name is not None and name.split(".", 1)[0] in ERROR_FAMILIES:
        return False
    raises = rec.model.derived(_RAISES, lambda: _raise_sites(rec.model))
    sites = raises.get(name or "", [])
    return bool(sites) and all(sites)


def _raise_sites(model: SemanticModel) -> Dict[str, List[bool]]:
    """For each error the module raises by name: whether each ``raise`` is outside ``except``
    handlers, under an ``if`` that tests a polled state."""
    found: Dict[str, List[bool]] = {}

    class Visitor(cst.CSTVisitor):
        def __init__(self) -> None:
            self.handlers = 0
            self.tests: List[cst.BaseExpression] = []

        def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
            self.handlers += 1

        def leave_ExceptHandler(self, original_node: cst.ExceptHandler) -> None:
            self.handlers -= 1

        def visit_If(self, node: cst.If) -> None:
            self.tests.append(node.test)

        def leave_If(self, original_node: cst.If) -> None:
            self.tests.pop()

        def visit_Raise(self, node: cst.Raise) -> None:
            if node.exc is not None:
                self.raised(node.exc)

        def visit_Call(self, node: cst.Call) -> None:
            # ``self.retry(exc=BuildMaxConcurrencyError(...))``: celery raises it for the task
            if isinstance(node.func, cst.Attribute) and node.func.attr.value == "retry":
                handed = call_argument(node, "exc")
                if handed is not None and isinstance(handed.value, cst.Call):
                    self.raised(handed.value)

        def raised(self, exc: cst.BaseExpression) -> None:
            name = model.qualified_name(exc.func if isinstance(exc, cst.Call) else exc, model.module_scope, 1 << 62)
            if name is not None:  # (errors are module-level classes)
                found.setdefault(name, []).append(self.handlers == 0 and bool(self.tests) and polls_state(self.tests[-1]))

    model.module.visit(Visitor())
    return found


_RAISES = object()  # ``derived`` key: qualified error name → whether each raise is on a polled state
