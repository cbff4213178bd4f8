# select: RES301
# Test code: a test holding the test database's cursor across a call is not reported (the code
# under test is judged where it holds one).
import requests

TIMEOUT = 10


def test_name_alone(conn, api_url):
    cursor = conn.cursor()
    cursor.execute("INSERT INTO used_query_ranges VALUES ('coinbase', 0)")
    requests.delete(f"{api_url}/exchanges", timeout=TIMEOUT)
    conn.commit()
