"""One name for psycopg2 or psycopg 3, whichever is installed."""
try:
    from psycopg2 import Error, connect as _connect
except ImportError:
    from psycopg import Error, connect as __connect

    def _connect(dsn=None, **kwargs):
        return __connect(dsn or "", **kwargs)


def connect(*args, **kwargs):
    connection = _connect(*args, **kwargs)
    connection.autocommit = True
    return connection
