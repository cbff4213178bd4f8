"""RES201 fix: one ``Idempotency-Key`` per operation, the same on all of its attempts — shown
statically (before/after, the rule is satisfied) and by running the fixed code against a real
server on 127.0.0.1."""

from __future__ import annotations


import pytest

from resilint.codemods.idempotency_key import AddIdempotencyKey
from resilint.lint.checker import check_source
from resilint.runtime.testing import serve_wsgi
from tests.codemods.support import dedent, load_module, remaining, rewrite
from tests.runtime.support import Script

LOOP = """
    import time, requests

    def pay(url, body):
        # one payment, up to three attempts
        for attempt in range(3):
            response = requests.post(url, json=body, timeout=5)
            if response.status_code == 200:
                return response
            time.sleep(0.01)
    """

RUNTIME_RETRY = """
    import requests
    from resilint.runtime import retry

    @retry(attempts=3, base=0.001, cap=0.01, budget=False)
    def pay(url, body):
        return requests.post(url, json=body, timeout=5)
    """


def test_a_loop_gets_a_key_created_once_above_it():
    code, left = rewrite(AddIdempotencyKey, LOOP, fix_target="runtime")
    assert code == dedent("""
        import time, requests
        from resilint.runtime import idempotency_key

        def pay(url, body):
            # one payment, up to three attempts
            post_key = idempotency_key()
            for attempt in range(3):
                response = requests.post(url, json=body, timeout=5, headers={"Idempotency-Key": post_key})
                if response.status_code == 200:
                    return response
                time.sleep(0.01)
        """)
    assert left == []
    assert remaining(dedent(LOOP), "RES201") == [6]
    assert remaining(code, "RES201") == []


def test_a_stripe_create_gets_its_key_as_the_keyword_stripe_takes():
    # Stripe's resources take the key as `idempotency_key=`; a `headers=` would be sent as a
    # parameter of the object created
    source = """
        import time
        import stripe

        def charge(amount, customer):
            for attempt in range(3):
                try:
                    return stripe.Charge.create(amount=amount, currency="usd", customer=customer)
                except stripe.error.APIConnectionError:
                    time.sleep(0.5)
        """
    code, left = rewrite(AddIdempotencyKey, source, fix_target="native")
    assert code == dedent("""
        import time
        import uuid
        import stripe

        def charge(amount, customer):
            request_key = str(uuid.uuid4())
            for attempt in range(3):
                try:
                    return stripe.Charge.create(amount=amount, currency="usd", customer=customer, idempotency_key=request_key)
                except stripe.error.APIConnectionError:
                    time.sleep(0.5)
        """)
    assert left == []
    assert remaining(dedent(source), "RES201") == [7]
    assert remaining(code, "RES201") == []


def test_a_literal_headers_dict_gets_an_entry_and_each_request_its_own_key():
    code, _ = rewrite(AddIdempotencyKey, fix_target="runtime", source="""
        import time, requests

        def sync(url, a, b, post_key):
            for attempt in range(3):
                try:
                    requests.post(
                        url,
                        json=a,
                        headers={
                            "Authorization": "token",  # from the vault
                        },
                        timeout=5,
                    )
                    return requests.patch(url, json=b, headers=None, timeout=5)
                except requests.ConnectionError:
                    time.sleep(0.1)
        """)
    assert code == dedent("""
        import time, requests
        from resilint.runtime import idempotency_key

        def sync(url, a, b, post_key):
            post_key_2 = idempotency_key()
            patch_key = idempotency_key()
            for attempt in range(3):
                try:
                    requests.post(
                        url,
                        json=a,
                        headers={
                            "Authorization": "token",  # from the vault
                            "Idempotency-Key": post_key_2,
                        },
                        timeout=5,
                    )
                    return requests.patch(url, json=b, headers={"Idempotency-Key": patch_key}, timeout=5)
                except requests.ConnectionError:
                    time.sleep(0.1)
        """)
    assert remaining(code, "RES201") == []


def test_a_decorated_function_gets_an_operation_scope_outside_its_retry():
    code, left = rewrite(AddIdempotencyKey, fix_target="runtime", source="""
        import httpx, requests
        import tenacity
        from tenacity import retry as r, stop_after_attempt
        from flask import Flask
        app = Flask(__name__)

        @app.route("/charge")
        @tenacity.retry(stop=tenacity.stop_after_attempt(3))
        def charge(order, idempotency_key=None):
            return requests.post("https://pay.example/charges", json=order, timeout=5)

        @r(stop=stop_after_attempt(3))
        async def update(client: httpx.AsyncClient, payload):
            return await client.patch("https://a.example/x", json=payload, headers={"A": "b"})

        @r(stop=stop_after_attempt(3))
        def two(session: requests.Session, payload):
            session.post("https://a.example/x", json=payload)
            session.post("https://a.example/y", json=payload)
        """)
    assert code == dedent("""
        import httpx, requests
        import tenacity
        from tenacity import retry as r, stop_after_attempt
        from flask import Flask
        from resilint.runtime import idempotency_key as runtime_idempotency_key
        from resilint.runtime import idempotent_operation

        app = Flask(__name__)

        @app.route("/charge")
        @idempotent_operation
        @tenacity.retry(stop=tenacity.stop_after_attempt(3))
        def charge(order, idempotency_key=None):
            return requests.post("https://pay.example/charges", json=order, timeout=5, headers={"Idempotency-Key": runtime_idempotency_key()})

        @idempotent_operation
        @r(stop=stop_after_attempt(3))
        async def update(client: httpx.AsyncClient, payload):
            return await client.patch("https://a.example/x", json=payload, headers={"A": "b", "Idempotency-Key": runtime_idempotency_key()})

        @r(stop=stop_after_attempt(3))
        def two(session: requests.Session, payload):
            session.post("https://a.example/x", json=payload)
            session.post("https://a.example/y", json=payload)
        """)
    assert [line for line, _ in left] == [18, 19]
    assert remaining(code, "RES201") == [23, 24]  # the two left alone, lines moved by the fix


def test_headers_of_unknown_content_and_keys_made_per_attempt_are_left_alone():
    source = """
        import uuid, time, requests

        def f(url, headers):
            for attempt in range(3):
                try:
                    return requests.post(url, headers={"Idempotency-Key": str(uuid.uuid4())}, timeout=5)
                except requests.ConnectionError:
                    time.sleep(0.1)
        """
    code, left = rewrite(AddIdempotencyKey, source, fix_target="runtime")
    assert code == dedent(source)
    assert [line for line, _ in left] == [6]


TENACITY_RETRY = """
    import requests, tenacity

    @tenacity.retry(stop=tenacity.stop_after_attempt(3), retry=tenacity.retry_if_result(lambda r: r.status_code >= 500))
    def pay(url, body):
        return requests.post(url, json=body, timeout=5)
    """

BACKOFF_RETRY = """
    import requests, backoff

    @backoff.on_predicate(backoff.constant, lambda r: r.status_code >= 500, interval=0.001, max_tries=3)
    def pay(url, body):
        return requests.post(url, json=body, timeout=5)
    """


@pytest.mark.slow
@pytest.mark.parametrize(
    "source",
    [LOOP, RUNTIME_RETRY, TENACITY_RETRY, BACKOFF_RETRY],
    ids=["hand-written-loop", "runtime-retry", "tenacity", "backoff"],
)
def test_the_fixed_code_sends_one_key_per_operation_to_a_real_server(tmp_path, source):
    fixed, _ = rewrite(AddIdempotencyKey, source, fix_target="runtime")
    module = load_module(tmp_path, f"fixed_{abs(hash(source))}", fixed)
    # each operation: two 503s, then a success
    app = Script((503, 0.0), (503, 0.0), (200, 0.0), (503, 0.0), (503, 0.0), (200, 0.0))
    with serve_wsgi(app) as url:
        assert module.pay(url, {"amount": 5}).status_code == 200
        assert module.pay(url, {"amount": 5}).status_code == 200
    keys = [seen["HTTP_IDEMPOTENCY_KEY"] for seen in app.seen]
    assert len(keys) == 6
    assert len(set(keys[:3])) == 1  # every attempt of the first operation
    assert len(set(keys[3:])) == 1  # every attempt of the second
    assert keys[0] != keys[3]  # and a new key for the next operation


def test_hoisting_keeps_crlf_line_endings_and_tab_indentation():
    source = dedent(LOOP).replace("    ", "\t").replace("\n", "\r\n")
    code, _ = rewrite(AddIdempotencyKey, source, fix_target="runtime")
    assert "\r\n\t# one payment, up to three attempts\r\n\tpost_key = idempotency_key()\r\n\tfor attempt" in code
    assert code.count("\n") == code.count("\r\n")


def test_nothing_is_imported_when_the_request_is_left_alone():
    source = """
        import requests
        from tenacity import retry, stop_after_attempt

        HEADERS = {"Accept": "application/json"}

        @retry(stop=stop_after_attempt(3))
        def run(url, payload):
            return requests.post(url, json=payload, headers=HEADERS, timeout=5)
        """
    code, left = rewrite(AddIdempotencyKey, source, fix_target="runtime")
    assert code == dedent(source)
    assert [line for line, _ in left] == [8]


def test_nested_retries_get_the_key_outside_the_outer_one():
    code, _ = rewrite(AddIdempotencyKey, fix_target="runtime", source="""
        import time, requests

        def pay(url, body):
            while True:
                try:
                    for attempt in range(3):
                        try:
                            return requests.post(url, json=body, timeout=5)
                        except requests.Timeout:
                            time.sleep(0.1)
                    return None
                except requests.ConnectionError:
                    time.sleep(1)
        """)
    assert "    post_key = idempotency_key()\n    while True:\n" in code


def test_another_objects_post_is_reported_without_a_fix():
    # an SDK's `post(path, **body)` (OVH's) would send `headers=` as a field of the body
    code = dedent("""
        import time, requests
        import ovh

        def checkout(client: ovh.Client, cart_id):
            for _ in range(3):
                try:
                    return client.post(f"/order/cart/{cart_id}/checkout", autoPay=True)
                except ovh.exceptions.NetworkError:
                    time.sleep(2)

        def pay(url, body):
            for _ in range(3):
                try:
                    return requests.post(url, json=body, timeout=5)
                except requests.ConnectionError:
                    time.sleep(2)
        """)
    found = {f.line: f.fix for f in check_source(code, ["RES201"]) if f.code == "RES201"}
    assert sorted(found) == [7, 14]
    assert found[7] is None
    assert found[14] is not None and found[14].applicability == "unsafe"
