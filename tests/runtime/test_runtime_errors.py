"""The runtime's exceptions cross process boundaries intact (issue 28, item 9)."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from resilint.runtime import BulkheadFull, CircuitOpenError, DeadlineExceeded, RetryBudgetExhausted


def raise_open():
    raise CircuitOpenError("payments", "open", 1.5)


def raise_full():
    raise BulkheadFull("search", 4, 8)


def raise_budget():
    raise RetryBudgetExhausted("payments", response=object())


def raise_deadline():
    raise DeadlineExceeded("deadline exceeded before attempt 2", response=object())


def answer():
    return 42


def test_exceptions_raised_in_a_worker_process_come_back_intact():
    with ProcessPoolExecutor(1) as pool:
        with pytest.raises(CircuitOpenError) as opened:
            pool.submit(raise_open).result(timeout=60)  # was: the pool broke (BrokenProcessPool)
        with pytest.raises(BulkheadFull) as full:
            pool.submit(raise_full).result(timeout=60)
        with pytest.raises(RetryBudgetExhausted) as budget:
            pool.submit(raise_budget).result(timeout=60)
        with pytest.raises(DeadlineExceeded) as late:
            pool.submit(raise_deadline).result(timeout=60)
        assert pool.submit(answer).result(timeout=60) == 42  # the pool still works
    assert (opened.value.name, opened.value.state, opened.value.retry_in) == ("payments", "open", 1.5)
    assert str(opened.value) == str(CircuitOpenError("payments", "open", 1.5))
    assert (full.value.name, full.value.max_concurrent, full.value.max_queue) == ("search", 4, 8)
    assert str(full.value) == str(BulkheadFull("search", 4, 8))
    assert budget.value.dependency == "payments"
    assert str(budget.value) == str(RetryBudgetExhausted("payments"))  # was a garbled message
    assert str(late.value) == "deadline exceeded before attempt 2"
    assert budget.value.response is None and late.value.response is None  # bound to the worker


@pytest.mark.parametrize(
    "error",
    [
        CircuitOpenError("a", "half_open"),
        BulkheadFull("b", 1, 0),
        RetryBudgetExhausted(None),
        DeadlineExceeded(),
    ],
)
def test_every_runtime_exception_round_trips_through_pickle(error):
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error) and str(again) == str(error) and again.args == error.args
