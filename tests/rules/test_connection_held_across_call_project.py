"""RES301 over multi-module trees on disk, through the CLI: a DB scope in one module, the
service and the gateway that reach the network in others; project wrappers around
``atomic()``; Flask-SQLAlchemy's implicit transaction; and the shapes that must stay quiet
(``on_commit``, commit before the call, fetch before the transaction, task queues)."""

from __future__ import annotations

import json

import libcst as cst

from resilint.libraries.summaries import summarise
from resilint.lint.semantic import SemanticModel
from resilint.lint.summary import ModuleSummary, Place
from tests.conftest import write_tree

GATEWAY = """
    import requests

    API = "https://pay.example"

    def create_payment(order):
        return requests.post(f"{API}/payments", json=order, timeout=(3.05, 20))
"""
SERVICE = """
    from shop import gateway

    def charge(order):
        return gateway.create_payment(order)
"""
DJANGO_VIEW = {
    "shop/__init__.py": "",
    "shop/gateway.py": GATEWAY,
    "shop/services.py": SERVICE,
    "shop/views.py": """
        from django.db import transaction
        from shop.services import charge

        def checkout(request, order):
            with transaction.atomic():
                order.save()
                charge(order)
            return order
    """,
}


def _findings(cli, root, *paths, cache=False):
    args = ["check", "--select", "RES301", "--format", "json", *([] if cache else ["--no-cache"]), *paths]
    result = cli(args, root)
    assert result.exit_code in (0, 1), result.output + result.stderr
    return json.loads(result.output)["findings"]


def test_view_in_atomic_through_service_and_gateway(cli, tmp_path):
    write_tree(tmp_path, DJANGO_VIEW)
    findings = _findings(cli, tmp_path, "shop")
    assert len(findings) == 1
    finding = findings[0]
    assert (finding["path"], finding["line"]) == ("shop/views.py", 7)  # the call inside the scope
    assert "`checkout` -> `charge` -> `create_payment` -> `requests.post`" in finding["message"]
    assert "up to 23.05 s per attempt" in finding["message"]
    related = {(r["path"], r["line"]) for r in finding["related"]}
    assert related == {("shop/views.py", 5), ("shop/gateway.py", 6)}


def test_checking_only_the_view_still_follows_the_other_modules(cli, tmp_path):
    write_tree(tmp_path, DJANGO_VIEW)
    findings = _findings(cli, tmp_path, "shop/views.py", cache=True)
    assert [(f["path"], f["line"]) for f in findings] == [("shop/views.py", 7)]
    # and again from the cache of summaries
    assert [(f["path"], f["line"]) for f in _findings(cli, tmp_path, "shop/views.py", cache=True)] == [("shop/views.py", 7)]


def test_project_decorator_locking_rows_in_atomic(cli, tmp_path):
    write_tree(tmp_path, {
        "shop/__init__.py": "",
        "shop/gateway.py": GATEWAY,
        "shop/locks.py": """
            import functools
            from django.db import transaction
            from shop.models import Payment

            def with_locked_payment(view):
                @functools.wraps(view)
                def wrapper(request, payment_id, *args, **kwargs):
                    with transaction.atomic():
                        payment = Payment.objects.select_for_update().get(pk=payment_id)
                        return view(request, payment, *args, **kwargs)
                return wrapper
        """,
        "shop/views.py": """
            from shop.gateway import create_payment
            from shop.locks import with_locked_payment

            @with_locked_payment
            def capture(request, payment):
                payment.refresh_from_db()
                create_payment(payment.order)
        """,
    })
    findings = _findings(cli, tmp_path, "shop")
    assert [(f["path"], f["line"]) for f in findings] == [("shop/views.py", 7)]
    message = findings[0]["message"]
    assert "`@with_locked_payment` (shop/views.py:4), which opens `transaction.atomic()` (shop/locks.py:8)" in message
    assert "rows locked by `select_for_update()`" in message
    related = {(r["path"], r["line"]) for r in findings[0]["related"]}
    assert related == {("shop/views.py", 4), ("shop/locks.py", 8), ("shop/gateway.py", 6)}


def test_context_manager_wrapping_atomic_in_another_module(cli, tmp_path):
    write_tree(tmp_path, {
        "shop/__init__.py": "",
        "shop/gateway.py": GATEWAY,
        "shop/tracing.py": """
            from contextlib import contextmanager
            from django.db import transaction

            @contextmanager
            def traced_atomic_transaction():
                with transaction.atomic():
                    with tracer.start_as_current_span("transaction"):
                        yield
        """,
        "shop/orders.py": """
            from shop.gateway import create_payment
            from shop.tracing import traced_atomic_transaction

            def complete(order):
                with traced_atomic_transaction():
                    order.save()
                    create_payment(order)
                with other_context():
                    create_payment(order)
        """,
    })
    findings = _findings(cli, tmp_path, "shop")
    assert [(f["path"], f["line"]) for f in findings] == [("shop/orders.py", 7)]
    assert "`traced_atomic_transaction()` (shop/orders.py:5), which opens `transaction.atomic()` (shop/tracing.py:6)" in (
        findings[0]["message"]
    )


FLASK = {
    "app/__init__.py": "",
    "app/ledger.py": """
        import requests

        def post_entry(entry):
            requests.post("https://ledger.example/entries", json=entry)
    """,
}


def test_flask_sqlalchemy_task_queries_then_calls_out_then_commits(cli, tmp_path):
    write_tree(tmp_path, {**FLASK, "app/tasks.py": """
        from app.extensions import db
        from app.ledger import post_entry
        from app.models import Invoice

        def settle(invoice_id):
            invoice = Invoice.query.filter_by(id=invoice_id).first()
            invoice.status = "settled"
            post_entry(invoice.as_entry())
            db.session.commit()
    """})
    findings = _findings(cli, tmp_path, "app")
    assert [(f["path"], f["line"]) for f in findings] == [("app/tasks.py", 8)]
    message = findings[0]["message"]
    assert "the transaction that `Invoice.query.filter_by()` began" in message
    assert "with no limit: requests waits forever by default" in message


def test_quiet_shapes(cli, tmp_path):
    write_tree(tmp_path, {
        **FLASK,
        "shop/__init__.py": "",
        "shop/gateway.py": GATEWAY,
        "shop/services.py": SERVICE,
        "shop/events.py": """
            from django.db import transaction

            def call_event(func, *args):
                connection = transaction.get_connection()
                if connection.in_atomic_block:
                    transaction.on_commit(lambda: func(*args))
                else:
                    func(*args)

            def notify_paid(order):
                connection = transaction.get_connection()
                if connection.in_atomic_block:
                    transaction.on_commit(lambda: _send(order))
                else:
                    _send(order)

            def _send(order):
                from shop.gateway import create_payment
                create_payment(order)
        """,
        "shop/views.py": """
            from django.db import transaction
            from shop import tasks
            from shop.events import call_event, notify_paid
            from shop.services import charge

            def on_commit_directly(order):
                with transaction.atomic():
                    order.save()
                    transaction.on_commit(lambda: charge(order))

            def through_a_helper(order):
                with transaction.atomic():
                    order.save()
                    call_event(charge, order)
                    notify_paid(order)

            def fetch_then_save(order):
                payment = charge(order)
                with transaction.atomic():
                    order.payment = payment
                    order.save()
                charge(order)  # after the scope closed

            def queued(order):
                with transaction.atomic():
                    order.save()
                    tasks.charge_later.delay(order.pk)
                    tasks.charge_later.apply_async(args=(order.pk,))
        """,
        "app/tasks.py": """
            from app.extensions import db
            from app.ledger import post_entry
            from app.models import Invoice

            def commit_first(invoice_id):
                invoice = Invoice.query.get(invoice_id)
                invoice.status = "settled"
                db.session.commit()
                post_entry(invoice.as_entry())

            def fetch_first(invoice_id, entry):
                post_entry(entry)
                invoice = Invoice.query.get(invoice_id)
                invoice.status = "settled"
                db.session.commit()
        """,
    })
    assert _findings(cli, tmp_path, "shop", "app") == []


def test_summary_with_db_scopes_survives_json(tmp_path):
    source = (
        "import requests\nfrom django.db import transaction\n"
        "@transaction.atomic\ndef f(order):\n    order.save()\n    requests.post('u', timeout=3)\n"
        "    transaction.on_commit(lambda: requests.get('u'))\n"
    )
    model = SemanticModel(cst.parse_module(source), module_name="m", path="m.py", text=source)
    summary = summarise(model, lambda node: Place("m.py", 1, 1, 1, 2))
    function = summary.functions["m.f"]
    assert [scope.whole_function for scope in function.db_scopes] == [True]
    assert [(c.target, c.db_scopes, c.later) for c in function.calls if c.target.startswith("requests")] == [
        ("requests.post", (0,), False), ("requests.get", (), True)
    ]
    assert ModuleSummary.from_json(json.loads(json.dumps(summary.to_json()))) == summary


def test_sqlalchemy_and_asyncpg_scopes_reach_clients_in_other_modules(cli, tmp_path):
    write_tree(tmp_path, {
        "svc/__init__.py": "",
        "svc/clients.py": """
            import httpx

            client = httpx.AsyncClient(timeout=httpx.Timeout(8.0, connect=2.0))

            async def publish(event):
                return await client.post("https://bus.example/events", json=event)

            def notify(user):
                return httpx.post("https://mail.example/send", json=user, timeout=4)
        """,
        "svc/jobs.py": """
            from svc.clients import notify, publish
            from svc.db import SessionLocal, engine, pool

            async def export(batch):
                async with pool.acquire() as conn:
                    rows = await conn.fetch("select * from outbox")
                    await publish(rows)

            def welcome(user_id):
                with SessionLocal() as session:
                    user = session.get(User, user_id)
                    notify(user)  # quiet: `get` alone is not known to be a database session's
                    session.execute(mark_welcomed(user_id))
                    notify(user)
                with engine.begin() as conn:
                    conn.execute(audit(user_id))
                    notify(user)
        """,
        "svc/db.py": """
            import asyncpg
            from sqlalchemy import create_engine
            from sqlalchemy.orm import sessionmaker

            engine = create_engine("postgresql://db/app")
            SessionLocal = sessionmaker(bind=engine)
            pool = None
        """,
    })
    findings = _findings(cli, tmp_path, "svc")
    assert [(f["path"], f["line"]) for f in findings] == [
        ("svc/jobs.py", 7), ("svc/jobs.py", 14), ("svc/jobs.py", 17),
    ]
    assert "`export` -> `publish` -> `httpx.AsyncClient.post` runs inside `pool.acquire()` (svc/jobs.py:5)" in findings[0]["message"]
    assert "inside `SessionLocal()` (svc/jobs.py:10)" in findings[1]["message"]
    assert "up to 4 s per attempt (`4`)" in findings[1]["message"]
    assert "inside `engine.begin()` (svc/jobs.py:15)" in findings[2]["message"]
