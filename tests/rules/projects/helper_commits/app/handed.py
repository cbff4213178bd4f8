from sqlalchemy import select

from app.models import Shelf
from app.sync import call_store


async def apply_pending(db, rows):
    for row in rows:
        call_store([row.id])
        row.done = True
        await db.commit()


async def on_sync_done(db, user_id):
    result = await db.execute(select(Shelf).where(Shelf.user_id == user_id))
    rows = list(result.scalars())
    await db.commit()  # the session its caller handed over: the caller's transaction ends here
    await apply_pending(db, rows)


async def commit_exporter_then_call(exporter, rows):
    await exporter.session.commit()  # the session another object keeps: maybe not the caller's
    call_store(rows)
