import tenacity

from bank import partner

retry = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random_exponential(max=10))


@retry
def adjust(account, amount):
    # the write session's adapter was given no retries: one layer
    # select: RES204
    return partner.post_adjustment(account, amount)


@retry
def refresh(account):
    return partner.balance(account)  # expect: RES204 "tenacity 3 attempts (bank/jobs.py:15) x urllib3 Retry total=2 (bank/partner.py:15) = up to 9 calls"


@retry
def notify(account):
    # ``send`` falls back to the write session: no retries of its own
    return partner.send("POST", "https://bank.example/notices", json={"account": account})


@retry
def statement(account):
    return partner.send("GET", f"https://bank.example/accounts/{account}/statement", session=partner.reads)  # expect: RES204 "x urllib3 Retry total=2 (bank/partner.py:15) = up to 9 calls"
