from typing import Any

from app.utils import call_with_retries, get_paginated


async def get_group_owners(client: Any, group_id: str) -> list:
    owners = client.groups.by_group_id(group_id).owners
    return await get_paginated(owners.get)


async def sync(client: Any, group_ids: list) -> dict:
    # the backoff around ``get_group_owners`` repeats the backoff inside it: the listing loop
    # between them retries only the expired token, so the transport errors pass it
    return {gid: await call_with_retries(get_group_owners, client, gid) for gid in group_ids}
