"""Re-runnable scenarios for resilint.runtime against real servers on 127.0.0.1.

    python bench/runtime_scenarios.py            # full size, prints the figures
    python bench/runtime_scenarios.py --quick    # the sizes the test-suite uses

Each ``scenario_*`` function returns a dict of figures; tests/runtime/test_runtime_scenarios.py
runs them at small sizes and asserts on the same figures. No network mocks: every call is real
HTTP over loopback, to stdlib servers started in threads on ports chosen by binding to 0.
"""

from __future__ import annotations

import argparse
import json
import logging
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler
from typing import Any, Dict, List

import requests

from resilint.runtime import (
    Bulkhead,
    BulkheadFull,
    CircuitBreaker,
    CircuitOpenError,
    DeadlineExceeded,
    HttpPolicy,
    ResilientSession,
    RetryBudget,
    WSGIDeadlineMiddleware,
    check_deadline,
    deadline,
    get_metrics,
    idempotency_key,
    retrying,
)
from resilint.runtime.propagation import REFUSED_HEADER
from resilint.runtime.testing import reset_registries, serve_handler, serve_wsgi


# --------------------------------------------------------------------------------------------
# 1. Retry amplification: a dependency failing a share of requests, N concurrent clients.
# --------------------------------------------------------------------------------------------
def _failing_app(share: float, counter: Dict[str, int], lock: threading.Lock) -> Any:
    def app(environ: Any, start_response: Any) -> List[bytes]:
        with lock:
            counter["calls"] += 1
            n = counter["calls"]
        # deterministic: fail `share` of requests, spread evenly
        fail = int(n * share) != int((n - 1) * share)
        if fail:
            start_response("503 Service Unavailable", [("Content-Length", "0")])
        else:
            start_response("200 OK", [("Content-Length", "2")])
            return [b"ok"]
        return [b""]

    return app


def scenario_amplification(clients: int = 8, requests_per_client: int = 25, share: float = 1.0,
                           ratio: float = 0.1, floor: float = 1.0, window: float = 10.0) -> Dict[str, Any]:
    """Server calls per first attempt, budgeted runtime vs naive 3-attempt retry."""
    out: Dict[str, Any] = {"clients": clients, "first_attempts": clients * requests_per_client,
                           "failure_share": share, "ratio": ratio, "floor_per_s": floor, "window_s": window}
    for mode in ("runtime", "naive"):
        reset_registries()
        counter = {"calls": 0}
        lock = threading.Lock()
        budget = RetryBudget(ratio=ratio, min_per_second=floor, window=window, name=f"amp-{mode}")
        exhausted = [0]
        with serve_wsgi(_failing_app(share, counter, lock)) as url:
            def client(_: int) -> None:
                if mode == "runtime":
                    session = ResilientSession(dependency="amp", budget=budget, base=0.005, cap=0.05, read=2.0)
                else:
                    session = ResilientSession(dependency="amp", budget=False, base=0.005, cap=0.05, read=2.0)
                with session:
                    for _ in range(requests_per_client):
                        try:
                            session.get(url + "/work")
                        except Exception:
                            exhausted[0] += 1

            started = time.monotonic()
            with ThreadPoolExecutor(clients) as pool:
                list(pool.map(client, range(clients)))
            elapsed = time.monotonic() - started
        out[f"{mode}_server_calls"] = counter["calls"]
        out[f"{mode}_amplification"] = round(counter["calls"] / out["first_attempts"], 3)
        out[f"{mode}_failed_fast"] = exhausted[0]
        out[f"{mode}_seconds"] = round(elapsed, 3)
    out["bound"] = out["first_attempts"] * (1 + ratio) + floor * window
    return out


# --------------------------------------------------------------------------------------------
# 2. Deadline propagation through A -> B -> C.
# --------------------------------------------------------------------------------------------
def scenario_deadline_chain(caller_deadline: float = 0.3, hop_work: float = 0.05, leaf_work: float = 0.25,
                            propagate: bool = True) -> Dict[str, Any]:
    """Caller -> A -> B -> C. A and B work ``hop_work`` then call the next hop; C needs
    ``leaf_work``. With propagation, C refuses when its remaining budget cannot cover the work.
    Without (``propagate=False``: plain requests with each hop's own 1 s timeout), C works on
    after the caller gave up."""
    reset_registries()
    events: List[Any] = []
    lock = threading.Lock()

    def note(service: str, what: str) -> None:
        with lock:
            events.append((service, what, time.monotonic()))

    def make_hop(name: str, next_url: List[str]) -> Any:
        session = ResilientSession(dependency=f"chain-{name}") if propagate else requests.Session()

        def app(environ: Any, start_response: Any) -> List[bytes]:
            note(name, "start")
            time.sleep(hop_work)
            note(name, "end")
            try:
                if propagate:
                    r = session.get(next_url[0])
                else:
                    r = session.get(next_url[0], timeout=1.0)
            except requests.RequestException:
                start_response("502 Bad Gateway", [("Content-Length", "0")])
                return [b""]
            if r.headers.get(REFUSED_HEADER):
                raise DeadlineExceeded(f"{name}: downstream refused, deadline spent")
            start_response(f"{r.status_code} X", [("Content-Length", str(len(r.content)))])
            return [r.content]

        return WSGIDeadlineMiddleware(app, ceiling=5.0) if propagate else app

    def leaf(environ: Any, start_response: Any) -> List[bytes]:
        if propagate:
            check_deadline(leaf_work, "C work")  # refuse what cannot finish in time
        note("C", "start")
        time.sleep(leaf_work)
        note("C", "end")
        start_response("200 OK", [("Content-Length", "4")])
        return [b"done"]

    c_app = WSGIDeadlineMiddleware(leaf, ceiling=5.0) if propagate else leaf
    b_next: List[str] = []
    a_next: List[str] = []
    with serve_wsgi(c_app) as c_url, serve_wsgi(make_hop("B", b_next)) as b_url, serve_wsgi(make_hop("A", a_next)) as a_url:
        b_next.append(c_url + "/c")
        a_next.append(b_url + "/b")
        started = time.monotonic()
        gave_up_at = started + caller_deadline
        outcome = ""
        try:
            if propagate:
                with deadline(caller_deadline):
                    r = ResilientSession(dependency="chain-caller").get(a_url + "/a")
                outcome = f"HTTP {r.status_code}"
            else:
                r = requests.get(a_url + "/a", timeout=caller_deadline)
                outcome = f"HTTP {r.status_code}"
        except (DeadlineExceeded, requests.Timeout) as exc:
            outcome = type(exc).__name__
        answered_after = time.monotonic() - started
        time.sleep(leaf_work + 2 * hop_work + 0.1)  # let any orphaned work finish before counting
    after = [(s, w, round(t - gave_up_at, 3)) for s, w, t in events if t > gave_up_at + 0.005]
    return {
        "propagate": propagate,
        "caller_deadline_s": caller_deadline,
        "outcome": outcome,
        "answered_after_s": round(answered_after, 3),
        "leaf_started": any(s == "C" and w == "start" for s, w, _ in events),
        "work_events_after_caller_gave_up": len(after),
        "events_after": after,
    }


# --------------------------------------------------------------------------------------------
# 3. Idempotency: the server commits the charge, then drops the connection (first attempt).
# --------------------------------------------------------------------------------------------
def _payments_handler(charges: List[str], seen: Dict[str, Any], lock: threading.Lock) -> Any:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            key = self.headers.get("Idempotency-Key")
            with lock:
                if key is not None and key in seen:
                    status, payload = seen[key]
                    drop = False
                else:
                    charges.append(body.decode())
                    status, payload = 201, json.dumps({"charge": len(charges)}).encode()
                    if key is not None:
                        seen[key] = (status, payload)
                    drop = len(charges) == 1  # commit, then lose the reply (first charge only)
            if drop:
                self.connection.shutdown(socket.SHUT_RDWR)
                self.close_connection = True
                return
            self.send_response(status)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler


def scenario_idempotency() -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for mode in ("runtime_with_key", "runtime_loop_with_key", "runtime_without_key", "naive_retry"):
        reset_registries()
        charges: List[str] = []
        with serve_handler(_payments_handler(charges, {}, threading.Lock())) as url:
            result = ""
            try:
                if mode == "runtime_with_key":
                    s = ResilientSession(dependency="payments", auto_idempotency_key=True, base=0.01)
                    result = f"HTTP {s.post(url + '/charges', data=b'order-1').status_code}"
                elif mode == "runtime_loop_with_key":
                    s = ResilientSession(dependency="payments", attempts=1)  # one layer owns retries
                    for attempt in retrying(attempts=3, dependency="payments", method="POST", base=0.01):
                        with attempt:
                            r = s.post(url + "/charges", data=b"order-1",
                                       headers={"Idempotency-Key": idempotency_key()})
                    result = f"HTTP {r.status_code}"
                elif mode == "runtime_without_key":
                    s = ResilientSession(dependency="payments", base=0.01)
                    result = f"HTTP {s.post(url + '/charges', data=b'order-1').status_code}"
                else:
                    for _ in range(3):  # the hand-written loop resilint flags (RES2xx)
                        try:
                            r = requests.post(url + "/charges", data=b"order-1", timeout=2)
                            result = f"HTTP {r.status_code}"
                            break
                        except requests.ConnectionError:
                            continue
            except requests.ConnectionError as exc:
                result = f"ConnectionError (not retried: {type(exc).__name__})"
        out[mode] = {"charges": len(charges), "result": result}
    return out


# --------------------------------------------------------------------------------------------
# 4. Slow dependency: 200s that take too long; breaker on slow-call rate; bulkhead isolation.
# --------------------------------------------------------------------------------------------
def scenario_slow_dependency(slow_s: float = 0.3, concurrent: int = 12, workers: int = 6,
                             bulkhead_size: int = 4, use_bulkhead: bool = True) -> Dict[str, Any]:
    """A front service with a fixed pool of ``workers`` threads serves /search (calls a
    dependency answering 200 after ``slow_s``) and /profile (local). ``concurrent`` clients hit
    /search while we time /profile."""
    reset_registries()
    dep_calls = {"n": 0, "errors": 0}
    lock = threading.Lock()

    def dependency(environ: Any, start_response: Any) -> List[bytes]:
        with lock:
            dep_calls["n"] += 1
        time.sleep(slow_s)
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]

    breaker = CircuitBreaker("search-dep", slow_call_duration=slow_s / 3, min_calls=4, window=10.0,
                             open_duration=30.0, slow_call_rate=0.5)
    bulkhead = Bulkhead("search-dep", max_concurrent=bulkhead_size) if use_bulkhead else None
    statuses: Dict[str, int] = {}

    with serve_wsgi(dependency) as dep_url:
        session = ResilientSession(HttpPolicy("search-dep", breaker=breaker, bulkhead=bulkhead, read=5.0))

        def front(environ: Any, start_response: Any) -> List[bytes]:
            if environ["PATH_INFO"] == "/profile":
                start_response("200 OK", [("Content-Length", "7")])
                return [b"profile"]
            try:
                r = session.get(dep_url + "/s")
                status = "200 OK" if r.status_code == 200 else "502 Bad Gateway"
                key = "dependency_ok"
            except BulkheadFull:
                status, key = "503 Service Unavailable", "bulkhead_full"
            except CircuitOpenError:
                status, key = "503 Service Unavailable", "circuit_open"
            with lock:
                statuses[key] = statuses.get(key, 0) + 1
            start_response(status, [("Content-Length", "0")])
            return [b""]

        with serve_wsgi(front, workers=workers) as front_url:
            profile_latencies: List[float] = []

            def hit_search(_: int) -> int:
                return requests.get(front_url + "/search", timeout=10).status_code

            with ThreadPoolExecutor(concurrent) as pool:
                futures = [pool.submit(hit_search, i) for i in range(concurrent)]
                time.sleep(0.05)  # the slow route is now saturated
                for _ in range(5):
                    t0 = time.monotonic()
                    requests.get(front_url + "/profile", timeout=10)
                    profile_latencies.append(time.monotonic() - t0)
                search_statuses = [f.result() for f in futures]
            # a second wave: the breaker should now refuse instantly
            t0 = time.monotonic()
            second = [hit_search(i) for i in range(4)]
            second_wave_s = time.monotonic() - t0

    return {
        "use_bulkhead": use_bulkhead,
        "dependency_calls": dep_calls["n"],
        "dependency_errors": dep_calls["errors"],
        "breaker_state": breaker.state,
        "breaker_transitions": [f"{a}->{b}: {why}" for a, b, why in breaker.history],
        "front_outcomes": statuses,
        "search_statuses": {s: search_statuses.count(s) for s in sorted(set(search_statuses))},
        "profile_max_ms": round(max(profile_latencies) * 1000, 1),
        "second_wave_statuses": second,
        "second_wave_ms": round(second_wave_s * 1000, 1),
    }


# --------------------------------------------------------------------------------------------
# 5. Deadlines through a bulkhead wait and a hedge (the setups of issue 15, items 1 and 2).
# --------------------------------------------------------------------------------------------
def _recording_app(delays: Dict[str, float], seen: List[Dict[str, Any]], lock: threading.Lock) -> Any:
    """Answers 200 after ``delays[path]``; records each arrival (time, path, deadline header)."""

    def app(environ: Any, start_response: Any) -> List[bytes]:
        with lock:
            seen.append({"at": time.monotonic(), "path": environ["PATH_INFO"],
                         "header_ms": environ.get("HTTP_X_RESILINT_DEADLINE_MS")})
        time.sleep(delays.get(environ["PATH_INFO"], 0.0))
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]

    return app


def _late_request(seen: List[Dict[str, Any]], index: int, started: float, deadline_s: float) -> Dict[str, Any]:
    """What request ``index`` said the callee had left, against what was really left."""
    arrival = seen[index]
    return {"sent_after_ms": round((arrival["at"] - started) * 1000),
            "header_ms": int(arrival["header_ms"]) if arrival["header_ms"] else None,
            "left_at_arrival_ms": round((started + deadline_s - arrival["at"]) * 1000)}


def scenario_deadline_overrun(deadline_s: float = 0.5, hold_s: float = 0.3, hedge_delay: float = 0.2,
                              hedge_deadline_s: float = 0.4, slow_s: float = 2.0) -> Dict[str, Any]:
    """``Bulkhead(max_concurrent=1, max_queue=1)`` held by one slow call, then a call under
    ``deadline(deadline_s)``; and a hedged call (``hedge_delay``, ``attempts=1``) under
    ``deadline(hedge_deadline_s)`` against a ``slow_s`` endpoint, with requests and with the
    async httpx transport. Reports when the caller heard back and what the header said."""
    import asyncio

    import httpx

    from resilint.runtime import AsyncResilientTransport

    reset_registries()
    seen: List[Dict[str, Any]] = []
    out: Dict[str, Any] = {}
    with serve_wsgi(_recording_app({"/hold": hold_s, "/slow": slow_s}, seen, threading.Lock())) as url:
        with ResilientSession(dependency="overrun-bulkhead", bulkhead=Bulkhead("overrun", 1, 1)) as s:
            holder = threading.Thread(target=s.get, args=(url + "/hold",))
            holder.start()
            while not seen:
                time.sleep(0.002)
            started = time.monotonic()
            try:
                with deadline(deadline_s):
                    s.get(url + "/slow")
                outcome = "HTTP 200"
            except Exception as exc:
                outcome = type(exc).__name__
            out["bulkhead"] = {"outcome": outcome, "answered_after_ms": round((time.monotonic() - started) * 1000),
                               **_late_request(seen, 1, started, deadline_s)}
            holder.join()

        hedge = dict(hedge=True, hedge_delay=hedge_delay, attempts=1)
        for client in ("requests", "httpx-async"):
            seen.clear()
            started = time.monotonic()
            try:
                if client == "requests":
                    with ResilientSession(dependency="overrun-hedge-sync", **hedge) as s, deadline(hedge_deadline_s):
                        s.get(url + "/slow")
                else:
                    async def call() -> None:
                        transport = AsyncResilientTransport(dependency="overrun-hedge-async", **hedge)
                        async with httpx.AsyncClient(transport=transport) as c:
                            nonlocal started
                            started = time.monotonic()
                            async with deadline(hedge_deadline_s):
                                await c.get(url + "/slow")

                    asyncio.run(call())
                outcome = "HTTP 200"
            except Exception as exc:
                outcome = type(exc).__name__
            out[f"hedge_{client}"] = {"outcome": outcome, "answered_after_ms": round((time.monotonic() - started) * 1000),
                                      **(_late_request(seen, 1, started, hedge_deadline_s) if len(seen) > 1 else {})}
    return out


# --------------------------------------------------------------------------------------------
# 6. Failed calls and the connection pool (issue 15, item 3).
# --------------------------------------------------------------------------------------------
def scenario_pool_release(tasks: int = 50, calls_per_task: int = 4, max_connections: int = 4,
                          pool_wait: float = 1.0) -> Dict[str, Any]:
    """``tasks`` asyncio tasks make ``calls_per_task`` calls each through one
    ``AsyncResilientTransport`` whose pool has ``max_connections`` connections, against a
    dependency that always answers 503, with no retry tokens left: every call fails fast with
    ``RetryBudgetExhausted``. The exceptions are kept (as an error report would keep them).
    Counts the calls that reached the dependency and those that failed waiting ``pool_wait`` s
    for a local connection."""
    import asyncio

    import httpx

    from resilint.runtime import AsyncResilientTransport

    reset_registries()
    counter = {"calls": 0}
    kept: List[BaseException] = []

    async def run(url: str) -> None:
        inner = httpx.AsyncHTTPTransport(retries=0, limits=httpx.Limits(max_connections=max_connections))
        transport = AsyncResilientTransport(dependency="pool", transport=inner, connect=pool_wait,
                                            budget=RetryBudget(ratio=0.0, min_per_second=0.0, window=10))
        async with httpx.AsyncClient(transport=transport) as client:
            async def task() -> None:
                for _ in range(calls_per_task):
                    try:
                        await client.get(url)
                    except Exception as exc:
                        kept.append(exc)

            await asyncio.gather(*(task() for _ in range(tasks)))

    with serve_wsgi(_failing_app(1.0, counter, threading.Lock())) as url:
        started = time.monotonic()
        asyncio.run(run(url))
        elapsed = time.monotonic() - started

    def waited_for_pool(exc: BaseException) -> bool:
        return isinstance(exc, httpx.PoolTimeout) or isinstance(exc.__cause__, httpx.PoolTimeout)

    return {"calls": tasks * calls_per_task, "reached_dependency": counter["calls"],
            "failed_waiting_for_pool": sum(map(waited_for_pool, kept)), "seconds": round(elapsed, 2)}


# --------------------------------------------------------------------------------------------
# 7. The breaker's per-call cost with many results in its window (issue 28, item 2).
# --------------------------------------------------------------------------------------------
def scenario_breaker_cost(window_results: int, measured: int = 200, repeats: int = 5) -> Dict[str, Any]:
    """Microseconds per ``allow()`` + ``record_success()`` on a breaker already holding
    ``window_results`` results in its window (``min_calls=1``: the rates are judged on every
    call). ``measured`` calls are timed (the window grows by that much meanwhile); the best of
    ``repeats`` runs is kept."""
    best = float("inf")
    for _ in range(repeats):
        breaker = CircuitBreaker("cost", min_calls=1, window=3600.0)
        for _ in range(window_results):
            breaker.allow().record_success(duration=0.001)
        started = time.perf_counter()
        for _ in range(measured):
            breaker.allow().record_success(duration=0.001)
        best = min(best, (time.perf_counter() - started) / measured)
    return {"window_results": window_results, "us_per_call": round(best * 1e6, 2)}


# --------------------------------------------------------------------------------------------
# 8. Hedging under a bulkhead (issue 28, item 7): what the dependency sees in flight.
# --------------------------------------------------------------------------------------------
def scenario_hedging_under_bulkhead(max_concurrent: int = 1, callers: int = 4, calls_each: int = 3,
                                    delay_s: float = 0.1, hedge_delay: float = 0.02) -> Dict[str, Any]:
    """``callers`` threads make ``calls_each`` hedged GETs (``hedge_delay``) through one
    ``ResilientSession`` with ``Bulkhead(max_concurrent, max_queue=callers)`` against a
    dependency answering after ``delay_s``; reports the most requests the dependency had in
    flight at once, its calls and the hedges sent."""
    reset_registries()
    get_metrics().reset()
    state = {"now": 0, "most": 0, "calls": 0}
    lock = threading.Lock()

    def app(environ: Any, start_response: Any) -> List[bytes]:
        with lock:
            state["now"] += 1
            state["calls"] += 1
            state["most"] = max(state["most"], state["now"])
        try:
            time.sleep(delay_s)
        finally:
            with lock:
                state["now"] -= 1
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]

    bulkhead = Bulkhead("hedged", max_concurrent=max_concurrent, max_queue=callers)
    with serve_wsgi(app) as url:
        with ResilientSession(dependency="hedged", bulkhead=bulkhead, hedge=True, hedge_delay=hedge_delay,
                              budget=False) as session:
            def caller(_: int) -> None:
                for _ in range(calls_each):
                    session.get(url)

            started = time.monotonic()
            with ThreadPoolExecutor(callers) as pool:
                list(pool.map(caller, range(callers)))
            elapsed = time.monotonic() - started
        time.sleep(delay_s * 2)  # let losing hedges finish before reading the figures
    return {"max_concurrent": max_concurrent, "most_in_flight_at_dependency": state["most"],
            "dependency_calls": state["calls"], "hedges": get_metrics().count("hedge", "hedged"),
            "seconds": round(elapsed, 2)}


def main(argv: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="test-suite sizes")
    parser.add_argument("--only", choices=("breaker-cost", "hedging-bulkhead"),
                        help="run one of the issue-28 sections alone (they run against older code too)")
    args = parser.parse_args(argv)
    if args.only:
        print(f"python {sys.version.split()[0]}, requests {requests.__version__}")
        (_breaker_cost if args.only == "breaker-cost" else _hedging_bulkhead)()
        return 0
    size = (4, 10) if args.quick else (16, 50)
    get_metrics().reset()
    transitions: List[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: transitions.append(record.getMessage())  # type: ignore[assignment]
    logging.getLogger("resilint.runtime").addHandler(handler)
    logging.getLogger("resilint.runtime").setLevel(logging.WARNING)
    print(f"python {sys.version.split()[0]}, requests {requests.__version__}")
    print("\n== 1. retry amplification (server calls per first attempt) ==")
    for share in (1.0, 0.5, 0.1):
        r = scenario_amplification(clients=size[0], requests_per_client=size[1], share=share)
        print(f"failure share {share:>4.0%}: first attempts {r['first_attempts']}, "
              f"runtime {r['runtime_server_calls']} calls ({r['runtime_amplification']}x, bound "
              f"{r['bound']:.0f}), naive 3-attempt {r['naive_server_calls']} calls ({r['naive_amplification']}x)")
    print("\n== 2. deadline propagation A -> B -> C (A, B work 50 ms each; C needs 250 ms) ==")
    for d, prop in ((1.0, True), (0.3, True), (0.3, False)):
        r = scenario_deadline_chain(caller_deadline=d, propagate=prop)
        label = "propagated" if prop else "local timeouts only"
        print(f"deadline {d:.1f}s, {label:>20}: caller got {r['outcome']} after {r['answered_after_s']*1000:.0f} ms; "
              f"C started: {r['leaf_started']}; work events after caller gave up: {r['work_events_after_caller_gave_up']}")
    print("\n== 3. idempotency (server commits, then drops the connection once) ==")
    for mode, r in scenario_idempotency().items():
        print(f"{mode:>22}: charges recorded {r['charges']}, caller saw {r['result']}")
    print("\n== 4. slow dependency (200 after 300 ms), front service with 6 worker threads ==")
    for use in (True, False):
        r = scenario_slow_dependency(use_bulkhead=use)
        print(f"bulkhead {'on ' if use else 'off'}: /profile max {r['profile_max_ms']} ms while /search saturated; "
              f"dependency calls {r['dependency_calls']}, errors {r['dependency_errors']}; "
              f"front outcomes {r['front_outcomes']}; breaker {r['breaker_state']}; "
              f"4 more /search in {r['second_wave_ms']} ms -> {r['second_wave_statuses']}")
        for t in r["breaker_transitions"]:
            print(f"    transition {t}")
    print("\n== 5. deadlines through a bulkhead wait and a hedge ==")
    r = scenario_deadline_overrun()
    for case, figures in r.items():
        print(f"{case:>18}: {figures}")
    print("\n== 6. failed calls and the connection pool (50 tasks x 4 calls, 4 connections, always 503) ==")
    print(scenario_pool_release())
    m = get_metrics()
    summary = (m.retry_ratio(), m.count("budget_exhausted"), m.count("breaker_transition"), m.count("deadline_refused"))
    _breaker_cost()
    _hedging_bulkhead()
    print(f"\nmetrics (scenarios 1-6, naive clients included): retry ratio {summary[0]:.3f}, budget exhausted {summary[1]}, "
          f"breaker transitions {summary[2]}, deadline refusals {summary[3]}")
    print(f"warnings logged on 'resilint.runtime': {len(transitions)} (e.g. {transitions[-1] if transitions else '-'})")
    return 0


def _breaker_cost() -> None:
    print("\n== 7. breaker per-call cost (allow + record, rates judged on every call) ==")
    for n in (1, 1_000, 10_000):
        r = scenario_breaker_cost(n)
        print(f"{r['window_results']:>6} results in the window: {r['us_per_call']:>8.2f} us per call")


def _hedging_bulkhead() -> None:
    print("\n== 8. hedging under a bulkhead (threads x 3 hedged GETs, 100 ms each, hedge after 20 ms) ==")
    for size, callers in ((1, 4), (2, 4), (4, 2)):
        r = scenario_hedging_under_bulkhead(max_concurrent=size, callers=callers)
        print(f"max_concurrent {size}, {callers} threads: at most {r['most_in_flight_at_dependency']} in flight at the "
              f"dependency; {r['dependency_calls']} calls, {r['hedges']} hedges, {r['seconds']} s")


if __name__ == "__main__":
    sys.exit(main())
