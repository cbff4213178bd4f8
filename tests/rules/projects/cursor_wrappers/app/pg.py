import psycopg2


class PgCursor:
    """Wraps a psycopg2 cursor: its first query opens a transaction that stays open."""

    def __init__(self, dsn):
        self._conn = psycopg2.connect(dsn, connect_timeout=5)
        self._cursor = self._conn.cursor()

    def execute(self, statement):
        self._cursor.execute(statement)

    def commit(self):
        self._conn.commit()
