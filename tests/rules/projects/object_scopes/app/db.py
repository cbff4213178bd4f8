import asyncio
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import create_async_engine

DATABASE_URI = "postgresql+asyncpg://db/app"


class Database:
    def __init__(self, uri):
        self.engine = create_async_engine(uri)
        self.lock = asyncio.Lock()

    @asynccontextmanager
    async def connect(self):
        async with self.lock:
            async with self.engine.connect() as conn:
                yield conn

    @asynccontextmanager
    async def reuse(self, conn):
        yield conn


db = Database(DATABASE_URI)
_engine = create_async_engine(DATABASE_URI)


@asynccontextmanager
async def connect():
    async with _engine.connect() as conn:
        yield conn


@asynccontextmanager
async def reuse_conn(conn):
    yield conn
