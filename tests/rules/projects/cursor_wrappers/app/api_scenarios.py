# select: RES301
import requests

from app.pg import PgCursor
from app.server import APIServer

TIMEOUT = 10


def test_remove_exchange(server: APIServer, api_url):
    cursor = server.db.conn.cursor()  # a project class: its own body shows no transaction
    cursor.execute("INSERT INTO used_query_ranges VALUES (?, ?)", ("coinbase", 0))
    requests.delete(f"{api_url}/exchanges", timeout=TIMEOUT)


def test_read_context(server: APIServer, api_url):
    with server.db.conn.read_ctx() as cursor:  # the block ends what it began
        cursor.execute("SELECT name FROM used_query_ranges")
    requests.get(f"{api_url}/exchanges", timeout=TIMEOUT)


def test_postgres_cursor(dsn, api_url):
    cursor = PgCursor(dsn)
    cursor.execute("INSERT INTO used_query_ranges VALUES ('coinbase', 0)")
    requests.delete(f"{api_url}/exchanges", timeout=TIMEOUT)  # expect: RES301
    cursor.commit()


def test_name_alone(conn, api_url):
    cursor = conn.cursor()
    cursor.execute("INSERT INTO used_query_ranges VALUES ('coinbase', 0)")
    requests.delete(f"{api_url}/exchanges", timeout=TIMEOUT)  # expect: RES301
    conn.commit()
