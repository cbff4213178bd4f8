from app.supervisor import catch_everything_and_restart
from app.webhooks import notify_loudly, notify_quietly


async def settle_quietly(url, payment):
    # a lost response of the webhook is logged on the way: the restart does not send it again
    return await catch_everything_and_restart(lambda: notify_quietly(url, payment))


async def settle_loudly(url, payment):
    return await catch_everything_and_restart(lambda: notify_loudly(url, payment))
