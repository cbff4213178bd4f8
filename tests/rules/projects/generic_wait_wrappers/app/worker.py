from app.waiters import RunWaiter


async def finish(run_id: str) -> None:
    await RunWaiter.wait_for_run(run_id)  # the waiter's own default: waits until the run is done


async def finish_soon(run_id: str) -> None:
    await RunWaiter.wait_for_run(run_id, timeout=5)


def report(url: str) -> None:
    from app.http import fetch

    fetch(url)  # expect: RES102
