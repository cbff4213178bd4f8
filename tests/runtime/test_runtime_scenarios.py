"""End-to-end proofs against real servers on 127.0.0.1, shared with bench/runtime_scenarios.py
(the bench prints the same figures at larger sizes)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("requests")
pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "bench" / "runtime_scenarios.py"


@pytest.fixture(scope="module")
def scenarios():
    spec = importlib.util.spec_from_file_location("runtime_scenarios", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_amplification_bounded_by_budget_and_naive_triples(scenarios):
    r = scenarios.scenario_amplification(clients=6, requests_per_client=20, share=1.0)
    first = r["first_attempts"]
    assert first == 120
    assert r["runtime_server_calls"] <= first * (1 + 0.1) + 1.0 * 10  # 142
    assert r["naive_server_calls"] == 3 * first
    assert r["runtime_failed_fast"] > 0  # the budget refused retries instead of sending them


def test_amplification_partial_failure(scenarios):
    r = scenarios.scenario_amplification(clients=4, requests_per_client=20, share=0.5)
    assert r["runtime_server_calls"] <= r["bound"]
    assert r["runtime_amplification"] < r["naive_amplification"]


def test_deadline_chain_generous_deadline_succeeds(scenarios):
    r = scenarios.scenario_deadline_chain(caller_deadline=1.0)
    assert r["outcome"] == "HTTP 200" and r["leaf_started"]
    assert r["work_events_after_caller_gave_up"] == 0
    assert r["answered_after_s"] <= 1.0 + 0.1


def test_deadline_chain_leaf_refuses_and_caller_answered_in_time(scenarios):
    r = scenarios.scenario_deadline_chain(caller_deadline=0.3)
    assert not r["leaf_started"]  # C refused: its remaining budget could not cover the work
    assert r["work_events_after_caller_gave_up"] == 0, r["events_after"]
    assert r["outcome"] in ("HTTP 504", "DeadlineExceeded")
    assert r["answered_after_s"] <= 0.3 + 0.1


def test_deadline_chain_without_propagation_works_for_nobody(scenarios):
    r = scenarios.scenario_deadline_chain(caller_deadline=0.3, propagate=False)
    assert r["leaf_started"] and r["work_events_after_caller_gave_up"] >= 1


def test_idempotency_exactly_one_charge(scenarios):
    r = scenarios.scenario_idempotency()
    assert r["runtime_with_key"] == {"charges": 1, "result": "HTTP 201"}
    assert r["runtime_loop_with_key"] == {"charges": 1, "result": "HTTP 201"}
    assert r["runtime_without_key"]["charges"] == 1  # not retried: the ambiguity is surfaced
    assert r["runtime_without_key"]["result"].startswith("ConnectionError")
    assert r["naive_retry"]["charges"] == 2  # the bug the runtime prevents


def test_slow_dependency_breaker_and_bulkhead(scenarios):
    r = scenarios.scenario_slow_dependency(slow_s=0.3, use_bulkhead=True)
    assert r["dependency_errors"] == 0
    assert r["breaker_state"] == "open"
    assert any("slow-call rate" in t for t in r["breaker_transitions"])
    assert r["front_outcomes"].get("bulkhead_full", 0) > 0
    assert r["profile_max_ms"] < 150  # the unrelated route kept answering
    assert r["second_wave_statuses"] == [503] * 4 and r["second_wave_ms"] < 250


def test_deadline_overrun_bulkhead_and_hedges(scenarios):
    r = scenarios.scenario_deadline_overrun(deadline_s=0.3, hold_s=0.15, hedge_delay=0.1, hedge_deadline_s=0.2, slow_s=0.6)
    for case in ("bulkhead", "hedge_requests", "hedge_httpx-async"):
        figures = r[case]
        assert figures["outcome"] != "HTTP 200"
        assert figures["header_ms"] <= figures["left_at_arrival_ms"] + 60, r
        budget_ms = 300 if case == "bulkhead" else 200
        # answered near the deadline, long before the 600 ms the slow dependency takes; the
        # margin allows for two busy test workers (a hedge was once answered after 383 ms)
        assert figures["answered_after_ms"] < budget_ms + 250, r


def test_pool_release_every_call_reaches_the_dependency(scenarios):
    r = scenarios.scenario_pool_release(tasks=10, calls_per_task=2, max_connections=2)
    assert r["reached_dependency"] == r["calls"] == 20 and r["failed_waiting_for_pool"] == 0


def test_hedging_under_a_bulkhead_stays_within_its_bound(scenarios):
    r = scenarios.scenario_hedging_under_bulkhead(max_concurrent=1, callers=3, calls_each=2)
    assert r["most_in_flight_at_dependency"] == 1 and r["dependency_calls"] == 6  # was 3 in flight
    roomy = scenarios.scenario_hedging_under_bulkhead(max_concurrent=4, callers=2, calls_each=2)
    assert roomy["hedges"] > 0 and roomy["most_in_flight_at_dependency"] <= 4
