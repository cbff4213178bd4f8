from sqlalchemy.ext.asyncio import AsyncSession

from app.handed import commit_exporter_then_call, on_sync_done
from app.models import Shelf


async def sync_route(user_id, db: AsyncSession):
    shelf = await db.get(Shelf, user_id)
    if shelf is None:
        return None
    await on_sync_done(db, user_id)


async def export_route(user_id, db: AsyncSession, exporter):
    await db.get(Shelf, user_id)
    await commit_exporter_then_call(exporter, [])  # expect: RES301
