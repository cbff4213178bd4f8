from pysqlcipher3 import dbapi2 as sqlcipher


class DBCursor:
    """Wraps the cursor of a connection in autocommit mode: no query opens a transaction."""

    def __init__(self, cursor):
        self._cursor = cursor

    def execute(self, statement, bindings=()):
        return self._cursor.execute(statement, bindings)


class DBConnection:
    def __init__(self, path):
        self._conn = sqlcipher.connect(path, isolation_level=None)

    def cursor(self) -> DBCursor:
        return DBCursor(self._conn.cursor())


class DBHandler:
    def __init__(self, path):
        self.conn = DBConnection(path)
