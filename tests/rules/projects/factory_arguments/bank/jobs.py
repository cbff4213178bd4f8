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
    return partner.balance(account)  # expect: RES204 "urllib3 Retry"
