"""A user program with mistakes mypy --strict must report through resilint.runtime: each line
marked with an error comment must get that error code (tests/runtime/test_runtime_typing.py)."""

from __future__ import annotations

from resilint.runtime import CircuitBreaker, HttpPolicy, ResilientTransport, retry


@retry(attempts=3)
def rates(currency: str) -> float:
    return 1.0


@retry
async def fetch(url: str) -> bytes:
    return url.encode()


async def use() -> None:
    rates(42)  # error: [arg-type]
    wrong_type: str = rates("EUR")  # error: [assignment]
    wrong_await: int = await fetch("u")  # error: [assignment]
    await fetch(1)  # error: [arg-type]
    print(wrong_type, wrong_await)


@retry(attemps=3)  # error: [call-overload]
def typo() -> None:
    pass


@retry(3)  # error: [call-overload]
def positional() -> None:
    pass


def adapters() -> None:
    transport: int = ResilientTransport(dependency="x")  # error: [assignment]
    HttpPolicy(attempts="3")  # error: [arg-type]
    ResilientTransport(atempts=3)  # error: [call-arg]
    CircuitBreaker("b").call(rates, "EUR", "USD")  # error: [call-arg]
    print(transport)
