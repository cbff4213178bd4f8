"""RES301 connection-held-across-call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from resilint.libraries.clients import spec_for
from resilint.libraries.db_scopes import DB_SCOPE_TRIGGERS, SCOPE_CLASSES, defers
from resilint.libraries.db_scopes.sqlalchemy import ending_method
from resilint.libraries.db_scopes.deferral import enqueued_when_called
from resilint.libraries.network_mocks import answered
from resilint.libraries.outbound import longest_wait, sends_request, wait_in_words
from resilint.libraries.timeout_values import value_from_data
from resilint.libraries.timeout_verdicts import passed_constant
from resilint.lint.project import ProjectContext, ProjectGraph
from resilint.lint.rule import Invalid
from resilint.lint.summary import Call, DbScope, FunctionSummary, Place
from resilint.lint.value_flow import call_at, calls_a_parameter, split_last
from resilint.rules.project_rule import ProjectRule


class ConnectionHeldAcrossCall(ProjectRule):
    """A call to another service runs while a DB connection or transaction is held.

    ## What it does
    Flags a call made while a database connection is checked out, a transaction is open or
    rows are locked, when that call — directly, or through project functions in any module,
    also methods of a row a Django `ForeignKey` or `OneToOneField` attribute holds
    (`self.workflow_state.update()` with `workflow_state = models.ForeignKey("WorkflowState", ...)`) —
    makes a request to another service: an HTTP client (requests and the sessions of
    requests-oauthlib and requests-hardened, httpx, aiohttp, urllib3, urllib, httplib2, a
    pycurl `perform()`, slumber resources, zeep clients loading their WSDL), SMTP/FTP/POP/IMAP,
    a socket connection, an SDK client (boto3, OpenAI, a jira `JIRA`; also a part of one that
    another module's factory makes, `llm().chat.completions.create`), Django's mail (`send_mail`, `send_mass_mail`,
    `mail_admins`, `mail_managers`, `EmailMessage.send` (also anymail's `AnymailMessage`, a
    Django message), a connection's `send_messages`,
    `get_connection().send_messages(messages)`: the configured backend talks to an SMTP
    server or an email service; djmail's `TemplateMail.send` and the messages its
    `MagicMailBuilder` builds, `mail_builder.registered_user(user, context).send()`, alike), or
    a client named in `extend-clients`.
    Database and Redis clients (psycopg, MySQL drivers, redis-py) are not another service.

    DB scopes recognised:

    - Django: `transaction.atomic()` as a block and as a decorator (`using=`, `savepoint=`
      allowed), with `select_for_update()` row locks noted. Project wrappers count, in any
      module: a `@contextmanager` that yields inside `atomic()` (`traced_atomic_transaction()`),
      and a decorator whose wrapper calls the decorated function inside `atomic()`, and a
      project subclass of `django.db.transaction.Atomic` entered by a `with`
      (`with LockedAtomicTransaction(License):`, which also locks a table). Such a
      context manager of any library may also be a method of a project object (`async with
      db.connect() as conn:`, `db` a module's instance of a class whose `@asynccontextmanager`
      `connect` yields inside `self.engine.connect()`), or one side of a conditional
      expression (`async with reuse_conn(conn) if conn else connect() as c:`): what either
      side opens is held.
    - SQLAlchemy: `with session.begin():`, `with engine.begin():`, `with Session(engine) as s:`
      and `with engine.connect() as conn:` once a query ran through `s`/`conn`; the implicit
      transaction of a session (Flask-SQLAlchemy's `db.session`, a model's `.query` chain,
      whether it starts with `filter_by`, `get` or `add_columns`), from the
      first query (`db.session.get(User, user_id)` included: a model class and a key) to `commit()`/`rollback()`/`close()`/`remove()`, or to the end of the
      `with app.app_context():` block the query ran in (its teardown removes the session), or
      to a call of a project function of any module whose last act ends it
      (`db.session_commit()` whose body is `session.commit()` in a `try` that rolls back, or a
      `sync_shelves()` that ends by calling such a helper; not one that commits only in a branch,
      nor a generator, whose body runs as its caller's loop asks for items: `for user in
      committing_iterator(users):` commits every 100 users, between the loop's requests),
      unless a query after that call begins a new one (and what such a function calls after it
      commits a module's session, `db.session.commit(); notify_hub(payload)`, or the session
      it was handed, `async def on_done(db, run): ...; await db.commit(); await apply(run)`,
      runs outside the transaction its caller began; not after it commits a session its object
      or another parameter keeps, `self.app_session.commit()`, which may be another session);
      this also ends the transaction a project
      decorator's wrapper began on the same session around the function (`@requires_auth`). A
      session made by calling a `sessionmaker`/`scoped_session` of the file
      (`SessionLocal = sessionmaker(...)`; `db = SessionLocal()`) is known as one; so is a local
      name holding what a call spelled as a session factory returns (`db = SessionLocal()` or
      `with SessionLocal() as db:` with `SessionLocal` imported from another module), as a
      receiver spelled `session` is.
    - DB-API: psycopg2/sqlite3 `with conn:`, `with psycopg.connect() as conn:`,
      `conn.transaction()`, and a cursor from `cur.execute(...)` to the connection's `commit()`
      (for sqlite3, from the first `INSERT`/`UPDATE`/`DELETE`/`REPLACE`: it opens no
      transaction for a `SELECT` or a `CREATE TABLE` written out)
      (not Django's raw cursors, `connection.cursor()` or `connections[alias].cursor()`, which
      run in autocommit mode outside `atomic()`, nor the clients of query engines and
      warehouses that default to autocommit — Trino, Presto, PyHive, Snowflake, Databricks SQL,
      BigQuery, Athena, ClickHouse — unless `connect()` passes `autocommit=False` or an
      `isolation_level` other than autocommit; a cursor the file cannot trace, such as one
      made from a parameter, is taken to be of the one DB-API driver the file imports). A
      cursor a `with` gave (`with db.read_ctx() as cursor:`, or the cursor of a connection a
      `with` gave, as in `with psycopg2.connect() as conn:`) is done with when that block ends,
      which commits or gives the connection back; a DB-API `with conn.cursor() as cur:` only
      closes the cursor, so its transaction stays open after the block. A cursor the project
      shows to be an instance of one of its own classes (`cursor = server.db.conn.cursor()`
      returning a `DBCursor`) opens a transaction only if that class sends its queries through
      a cursor known to be a DB-API driver's.
    - asyncpg/aiopg/databases: `async with pool.acquire()`, `conn.transaction()`,
      `database.connection()`; a connection checked out by hand (`conn = await pool.acquire()`,
      psycopg2's `pool.getconn()`) until `pool.release(conn)`/`pool.putconn(conn)`/`conn.close()`.

    The finding is reported at the call inside the scope that leads to the request, once per
    such call; the DB scope and the request are related locations, and the message names the
    call path (`checkout -> charge -> create_payment -> requests.post`) and, when the timeout is
    known, how long the connection (and the row locks) may be held (the timeout the request
    gives, also a constant of another module handed to a project client's method,
    `HTTPClient.send_request(..., timeout=settings.COMMON_REQUESTS_TIMEOUT)`, over the default
    that client fills in, or the default of the wrapper's parameter it hands on when the call on
    the way leaves it out, `def make_request(url, timeout=30)` called as `make_request(url)`). Saving, creating or
    deleting a row of a Django model (`Engagement.objects.create(...)`, also after queryset
    steps, `Product.objects.select_for_update().get_or_create(...)`; `engagement.save()`,
    `.delete()`; in the model's own module too) runs the receivers its module connects to that model's `pre_save`/`post_save`
    (or `pre_delete`/`post_delete`) signals, with `@receiver(post_save, sender=Engagement)` or
    `post_save.connect(handler, sender=Engagement)` (also `connect(receiver=handler, ...)`, and a
    sender named by its model's name, `sender=self.get_model("Engagement")` in an `AppConfig`
    or `apps.get_model("audit", "Engagement")`, or by its label, `sender="audit.Engagement"`;
    or with no sender, for every model): a receiver that calls another service is followed
    from there. Django's user model counts as one model however it is named:
    `django.contrib.auth.models.User`, `get_user_model()`, `settings.AUTH_USER_MODEL`,
    `"auth.User"`, or the project's own subclass of `AbstractUser`/`AbstractBaseUser`; its
    manager's `create_user()` and `create_superuser()` save a row too. So does sending a project's
    own `django.dispatch.Signal()` (`document_consumed.send(sender=None, document=doc)`, or
    `send_robust`): it runs every receiver connected to it (also an object, whose class's
    `__call__` runs: `workflow_submitted.connect(submission_notifier)`; `document_consumed.connect(handler)`
    in an `AppConfig.ready()`, or `@receiver(document_consumed)`), in the caller's frame.

    Not reported: test code (the `test-code` setting, as for RES202): a test holds the test
    database's transaction, and the code under test is judged where it holds one; work
    deferred with `transaction.on_commit(...)` (directly, or through a
    project helper that defers when `connection.in_atomic_block` is true, or that stores the
    function it would call in a queue when there is one and calls it only otherwise: `if
    "email_queue" in g: g.email_queue.append((send, email)) else: send(email)`, emails a
    request sends after its commit); work handed to a
    task queue (`.delay()`, `.apply_async()`, `enqueue`, a huey task function called,
    `@db_task()` or `@task()` of `huey.contrib.djhuey`; but a Celery task run in the caller's
    process, `task.run(...)`, `task.apply(...)`, `task.si(...).apply()`, also in a project
    function the task is handed to, holds the transaction as a plain call does), an executor
    (`submit`), a thread, or
    the event loop (`asyncio.create_task(notify(url))`: the coroutine runs after the caller
    goes on),
    also by a project decorator that hands the function it decorates to one and never calls
    it itself (`@postpone` whose wrapper runs `Thread(target=function, ...).start()`), or
    calls it itself only where a setting turns the hand-over off (`if
    settings.ENABLE_POSTPONE: Thread(...).start() else: return function(...)`: the direct
    path is the test settings' switch); one whose choice is the caller's, on a parameter of
    the wrapper (`if run_now: return function(...)`), may run it in the transaction and is
    followed;
    a `def` or `lambda` defined in the scope but not called there; calls made before the
    scope opens or after it closes, commits or is removed (also by a function of the same module
    that commits it, `self.sql_close()`); requests answered by a test double
    (`responses`, `respx`, `moto`...), also when the test that installs it (`@responses.activate`)
    reaches the request through project functions in other modules, and when the test replaces
    a project function on the way (`mocker.patch("app.notifications.send_email")`, by the
    name the calling module imports it under); a request after an `if` (or loop, or `with`) branch that
    ran the query and then returned or raised (the request runs only when that branch did
    not), unless a `try` around the query may carry an exception past that exit; a request
    behind an `if` on a parameter that the call path rules out: `establish_basket(user)` does
    not run the `if no_delay:` branch of `def establish_basket(user, *, no_delay=False)`, and
    `mark_status(fq, Status.IN_PROGRESS)` does not run what `send_webhooks(fq)` (called after
    `fq.status = status`) does only `if fq.status in (Status.SUCCESSFUL, Status.FAILED)`. The
    tests read are a parameter's truth, `==`/`!=`/`is`/`in`/`not in` against literals and
    module or class constants, `not`, `and`/`or` (a choice, `if self.is_creation or
    (gpx and self.get_elevation):`, rules out the call only when every side of it is ruled
    out), and an `if` that leaves the block before the call; a value passed through any number
    of calls counts, an unknown one never removes a path. So does a test on an attribute of the object a method runs on, when the caller made
    that object and the attribute is set from a constructor parameter
    (`FileService(workout, get_weather=False).process()` does not run what `process` does after
    `if not self.get_weather: return`), through `super().__init__(...)` and through the
    caller's own attributes (`get_weather=self.update_weather` in a method of an object made
    with `update_weather=False`). An attribute the method's own object was given just before,
    in the same block (`self.order = order`; `self.save()`), holds that value there; a
    parameter annotated with a builtin scalar type (`order: int`, no `None` default) is known
    not to be None.

    A commit (or rollback) in one branch of an `if` ends the transaction on that path only:
    a call after the `if` is still held on the others (`if movie.expired: session.commit()`),
    unless every branch, `else` included, ends it.

    Limits: statements are taken in the order they are written (a loop that queries at the end
    of its body and calls out at the start is not seen); a session's implicit transaction is
    followed within one function, and into its caller only when a project function returns
    with it open (its last query is through a session that outlives it, with no commit after,
    also in the body of a `try`: `load_sport(id)`, a model's `.query` on a parameter
    its callers hand a model class, `safe_query(User, "id", id)` over `model.query.filter(...)`,
    a service whose constructor queries, or a repository's method over the
    caller's session, `repo.get_one(id)`, whatever it is named, or a wrapper returning what such
    a function left open, `HttpRepo.get_one` over the repository's; in the caller's own package
    or in another top-level package of the project, `ckanext` calling `ckan.model`) and the
    caller commits or closes it later, itself or through a call that commits on the way (a
    service's `update_one` whose repository commits, or a session's `commit` kept on an object,
    `repo.commit()` with `self.commit = session.commit`): its calls between that call and the end are held (up to three
    such calls before each commit, and after the last one, are considered, not counting those
    in a branch that returns or raises before the calls that follow it; a caller that never
    ends it is not followed); `ATOMIC_REQUESTS` (configured in settings) is not modelled;
    an attribute a guard tests (`fq.status`) is taken to keep the value the caller set last
    before the call (a method that changes it on the way is not seen).

    Summary facts it reads (`lint/summary.py`): each function's `db_scopes` (description,
    place, `via`, `yields`, `wraps`, `locks`, `implicit`, `queries`), `decorators`,
    `defers_in_transaction`, `commits`, `leaves_open`, `leaves_open_by`, `open_through`, `commits_within`, and each
    call's `db_scopes`, `later`, `target`, `arguments`, `mocked`, `guards` and `passed`. Its `triggers` are every
    name that opens a DB scope (`resilint.libraries.db_scopes.DB_SCOPE_TRIGGERS`); a file with
    none of them opens no scope of its own, but its summary still needs, for the walk from a
    scope in another file: every call with `later` (calls inside a lambda must not be
    followed), `arguments` (the timeout of the final request), `decorators` (a project
    decorator that opens a scope), and a `via` DB scope for each `with` of an unknown call
    (`with locked_order():`, a project context manager that may open one).

    ## Why is this bad?
    While the other service thinks, the transaction keeps its pooled connection and its row
    locks. When that service slows down, every request in flight holds a connection for the
    whole wait: the pool runs dry and pages that never touch the slow service fail too (a
    pool of 20 connections and a 10 s payment timeout serve at most 2 such requests per
    second). Rows locked with `select_for_update()` block every other writer for as long.

    ## Example
    ```python
    # shop/views.py
    from django.db import transaction
    from shop.services import charge

    def checkout(request, order):
        with transaction.atomic():
            order.status = "paid"
            order.save()
            charge(order)  # RES301: checkout -> charge -> requests.post while the transaction is open

    # shop/services.py
    import requests

    def charge(order):
        return requests.post("https://pay.example/charges", json=order.as_json(), timeout=10)
    ```

    ## Use instead
    Call the other service first, then save in a short transaction; or, for work that must
    follow the commit, defer it:
    ```python
    def checkout(request, order):
        payment = charge(order)
        with transaction.atomic():
            order.status = "paid"
            order.payment_id = payment["id"]
            order.save()
        transaction.on_commit(lambda: send_receipt(order))
    ```

    ## Options
    `extend-clients` adds calls that count as requests. Checking a subset of files still follows
    calls into the project's other modules.
    """

    code = "RES301"
    name = "connection-held-across-call"
    precision = "medium"  # recognises SQLAlchemy sessions by their spelling
    message = "a DB connection or transaction is held across a call to another service"
    triggers = DB_SCOPE_TRIGGERS
    VALID = [
        # a pool of a broker's producers holds no database connection (kombu's pidbox)
        """
        import requests

        class Mailbox:
            def reply(self, url, body):
                with self.producer_pool.acquire(block=True) as producer:
                    producer.publish(body)
                    requests.post(url, json=body, timeout=5)
        """,
        # calling a huey task puts it on the queue: the worker sends after the commit (karrot)
        """
        import requests
        from django.db import transaction
        from huey.contrib.djhuey import db_task

        @db_task()
        def notify_about_accepted_application(application_id):
            requests.post("https://hooks.example.com/accepted", json={"id": application_id}, timeout=10)

        @transaction.atomic
        def accept(application):
            application.status = "accepted"
            application.save()
            notify_about_accepted_application(application.id)
        """,
        # every branch of the ``if`` ends the transaction before the request
        """
        import requests
        def refresh(session, url, stale):
            row = session.query(Movie).filter(Movie.url == url).first()
            if stale:
                session.commit()
            else:
                session.rollback()
            return requests.get(url, timeout=5).json()
        """,
        # a query through `conn.cursor()` ends with the block that gave `conn` (the context
        # manager closes the connection): the request runs after it
        """
        import contextlib, requests
        import snowflake.connector
        @contextlib.contextmanager
        def connection(config):
            conn = snowflake.connector.connect(**config)
            try:
                yield conn
            finally:
                conn.close()
        def materialize(config, url):
            with connection(config) as conn:
                count = conn.cursor().execute("SELECT COUNT(*) FROM t").fetchall()[0][0]
            return requests.post(url, json={"count": count}, timeout=5)
        """,
        # the helper of the same class commits before the request
        """
        import sqlite3, requests
        class Maintenance:
            def close(self):
                self.conn.commit()
            def run(self, ids):
                for comic_id in ids:
                    self.conn = sqlite3.connect("maintenance.db")
                    self.conn.execute("UPDATE maintenance SET current=?", (comic_id,))
                    self.close()
                    requests.get("https://comics.example/" + comic_id, timeout=TIMEOUT)
        """,
        # sqlite3 begins a transaction only before a write: a SELECT holds none
        """
        import sqlite3, requests
        def import_history(database_file, table):
            connection = sqlite3.connect(database_file, timeout=20)
            connection.execute("SELECT xml FROM %s" % table)
            users = requests.get("https://plex.example/api/users", timeout=TIMEOUT).json()
            rows = connection.execute("SELECT id, xml FROM %s" % table).fetchall()
            connection.close()
            return users, rows
        """,
        # fetch first, then a short transaction to save
        """
        import requests
        from django.db import transaction
        def checkout(order):
            payment = requests.post("https://pay", json={}, timeout=10)
            with transaction.atomic():
                order.save()
        """,
        # deferred until the commit; a lambda defined in the scope runs later
        """
        import requests
        from django.db import transaction
        def notify(order):
            requests.post("https://hooks", json={}, timeout=5)
        def checkout(order):
            with transaction.atomic():
                order.save()
                transaction.on_commit(lambda: notify(order))
        """,
        # handed to a task queue and to a thread pool
        """
        from concurrent.futures import ThreadPoolExecutor
        from django.db import transaction
        from shop.tasks import send_receipt
        executor = ThreadPoolExecutor(2)
        def checkout(order, fetch):
            with transaction.atomic():
                order.save()
                send_receipt.delay(order.pk)
                executor.submit(fetch, order.pk)
        """,
        # a nested def is not called in the block
        """
        import requests
        from django.db import transaction
        def checkout(order):
            with transaction.atomic():
                order.save()
                def later():
                    requests.post("https://pay", timeout=5)
            return later
        """,
        # Flask-SQLAlchemy: commit before the call
        """
        import requests
        from app import db
        from app.models import Order
        def settle(order_id):
            order = Order.query.get(order_id)
            order.status = "settled"
            db.session.commit()
            requests.post("https://ledger", json={}, timeout=5)
        """,
        # the session's connection is given back before the call
        """
        import requests
        from app import db
        def report(user_id):
            user = db.session.query(User).get(user_id)
            db.session.remove()
            requests.post("https://crm", json={}, timeout=5)
        """,
        # a SQLAlchemy session holds no connection before its first query, nor after commit()
        """
        import httpx
        from sqlalchemy import create_engine, text
        from sqlalchemy.orm import sessionmaker
        SessionLocal = sessionmaker(bind=create_engine("postgresql://"))
        def sync():
            with SessionLocal() as s:
                data = httpx.get("https://x").json()
                s.execute(text("insert ..."), data)
                s.commit()
                httpx.post("https://x/done")
        """,
        # a connection closed before the call
        """
        import requests
        from sqlalchemy import create_engine, text
        engine = create_engine("postgresql://")
        def export():
            conn = engine.connect()
            rows = conn.execute(text("select 1")).all()
            conn.close()
            requests.post("https://x", json=rows, timeout=5)
        """,
        # Django's raw cursor outside atomic() runs in autocommit mode
        """
        import requests
        from django.db import connection
        def refresh_stats():
            with connection.cursor() as cursor:
                cursor.execute("refresh materialized view stats")
            requests.post("https://metrics", json={}, timeout=5)
        """,
        # leaving the application context removes Flask-SQLAlchemy's scoped session
        """
        import requests
        def check_versions(app):
            with app.app_context():
                latest = Release.query.order_by(Release.id).first()
            requests.get("https://versions", params={"v": latest}, timeout=5)
        """,
        # the caller leaves ``no_delay`` at its default: the branch that calls out does not run
        """
        import requests
        from django.db import transaction
        def establish_basket(user, *, no_delay=False):
            if no_delay:
                requests.post("https://x", json={}, timeout=5)
            return user
        def add_to_cart(user):
            with transaction.atomic():
                establish_basket(user)
        """,
        # a query engine's DB-API client runs in autocommit mode unless told otherwise
        """
        import requests
        from trino.dbapi import connect
        def migrate():
            cur = connect(host="trino", port=443, user="etl").cursor()
            cur.execute("select user_id from enrollments")
            for (user_id,) in cur.fetchall():
                requests.get("https://x", params={"u": user_id}, timeout=5)
        """,
        # a cursor handed in, in a file whose one DB-API driver is such a client
        """
        import requests
        from trino.dbapi import connect
        def migrate(conn):
            cur = conn.cursor()
            cur.execute("select user_id from enrollments")
            for (user_id,) in cur.fetchall():
                requests.get("https://x", params={"u": user_id}, timeout=5)
        def main():
            migrate(connect(host="trino", port=443, user="etl"))
        """,
        # whichever database alias it names
        """
        import requests
        from django.db import connections
        def export(query):
            with connections["replica"].cursor() as cursor:
                cursor.execute(query)
                rows = cursor.fetchall()
            requests.post("https://exports", json=rows, timeout=5)
        """,
        # the branch that queried returned: the request runs only when it did not
        """
        import requests
        from app import db
        def login(provider, email):
            if provider == "facebook":
                if db.session.query(User).filter_by(email=email).count():
                    return "known"
                return "new"
            return requests.post("https://auth/token", json={}, timeout=5)
        """,
        # an HTTP session called `session` is not a database session
        """
        import requests
        session = requests.Session()
        def fetch(url):
            with session.get(url, timeout=5) as response:
                return requests.post("https://x", data=response.content, timeout=5)
        """,
    ]
    INVALID = [
        Invalid(
            # the wrapper's default timeout is what the request waits (treeherder's changelog task)
            """
            import requests
            from django.db import transaction

            def make_request(url, method="GET", headers=None, timeout=30, **kwargs):
                return requests.request(method, url, headers=headers or {}, timeout=timeout, **kwargs)

            def update_changelog(url):
                with transaction.atomic():
                    return make_request(url, headers={"Accept": "application/json"}).json()
            """,
            line=9,
            message="for as long as `requests.request` waits: up to 30 s per attempt (`timeout=30`)",
        ),
        Invalid(
            # anymail's message is a Django message: its ``send`` talks to the email service (karrot)
            """
            from anymail.message import AnymailMessage
            from django.db import transaction

            @transaction.atomic
            def send_welcome_email(user):
                user.mail_verified = False
                user.save()
                AnymailMessage("Welcome", "...", to=[user.email]).send()
            """,
            line=8,
            message="`django.core.mail.EmailMultiAlternatives.send`",
        ),
        Invalid(
            # ``super()`` goes on along the bases to the first that has the method, past a
            # mixin that has none
            """
            import requests
            from django.db import transaction
            class AuditMixin:
                def audit(self):
                    pass
            class Api:
                def create(self, url):
                    return requests.post(url, timeout=self.timeout)
            class Store(AuditMixin, Api):
                @transaction.atomic
                def create(self, url):
                    return super().create(url)
            """,
            line=12,
            message="`Store.create` -> `Api.create` -> `requests.post` runs inside",
        ),
        Invalid(
            # the activation mails go out through one connection, inside the transaction
            """
            from django.core import mail
            from django.db import transaction
            @transaction.atomic
            def activate_users(users):
                messages = []
                for user in users:
                    user.activate()
                    messages.append(mail.EmailMessage("Welcome", "...", to=[user.email]))
                mail.get_connection().send_messages(messages)
            """,
            line=9,
        ),
        Invalid(
            # the commit in the ``if`` ends the transaction on that path only: without a stale
            # row, the query's transaction is still open during the request
            """
            import requests
            def lookup(session, url):
                movie = session.query(Movie).filter(Movie.url == url).first()
                if movie is not None and movie.expired:
                    session.delete(movie)
                    session.commit()
                data = requests.get(url, timeout=5).json()
                session.add(Movie(url=url, title=data["title"]))
                session.commit()
            """,
            line=7,
        ),
        Invalid(
            """
            import requests
            from django.db import transaction
            def charge(order):
                return requests.post("https://pay", json={}, timeout=10)
            def checkout(order):
                with transaction.atomic():
                    order.save()
                    charge(order)
            """,
            line=8,
            message="`checkout` -> `charge` -> `requests.post` runs inside `transaction.atomic()` (example.py:6)",
        ),
        Invalid(
            """
            import requests
            from django.db import transaction
            @transaction.atomic
            def refund(payment):
                payment.refresh_from_db()
                requests.post("https://pay/refunds", json={}, timeout=(3, 10))
            """,
            line=6,
            message="up to 13 s per attempt",
        ),
        Invalid(
            # ``urlopen``'s timeout is its third positional argument (pgAdmin's upgrade check)
            """
            import urllib.request
            from django.db import transaction
            @transaction.atomic
            def upgrade_check(url):
                return urllib.request.urlopen(url, None, 5).read()
            """,
            line=5,
            message="up to 5 s per attempt (`5`)",
        ),
        Invalid(
            """
            import requests
            from django.db import transaction
            @transaction.atomic(using="payments", savepoint=False)
            def refund(payment):
                requests.post("https://pay/refunds", json={})
            """,
            line=5,
            message="`@transaction.atomic` (example.py:3): it holds a transaction and its DB connection for as long "
                    "as `requests.post` waits: with no limit",
        ),
        Invalid(
            """
            import httpx
            from sqlalchemy import create_engine, text
            from sqlalchemy.orm import sessionmaker
            engine = create_engine("postgresql://")
            def sync():
                with engine.begin() as conn:
                    conn.execute(text("update ..."))
                    httpx.post("https://x")
                with sessionmaker(bind=engine)() as s:
                    s.query(Item).all()
                    httpx.post("https://x")
            """,
            line=8,
            message="inside `engine.begin()` (example.py:6)",
            count=2,
        ),
        Invalid(
            """
            import httpx
            from sqlalchemy.orm import sessionmaker
            def sync(engine):
                with sessionmaker(bind=engine)() as s:
                    s.query(Item).all()
                    httpx.post("https://x")
            """,
            line=6,
            message="inside `sessionmaker(bind=engine)()` (example.py:4)",
        ),
        Invalid(
            """
            import requests
            from django.db import transaction
            from shop.models import Payment
            def capture(payment_id):
                with transaction.atomic():
                    payment = Payment.objects.select_for_update().get(pk=payment_id)
                    requests.post("https://pay/capture", json={})
            """,
            line=7,
            message="it holds a transaction and its DB connection, and rows locked by `select_for_update()`, for as long",
        ),
        Invalid(
            """
            import requests
            from app import db
            from app.models import Order
            def settle(order_id):
                order = Order.query.get(order_id)
                requests.post("https://ledger", json={}, timeout=5)
                db.session.commit()
            """,
            line=6,
            message="the transaction that `Order.query.get()` began",
        ),
        Invalid(
            # a query chain that starts by adding columns runs a SELECT all the same
            """
            import requests
            from app import db
            from app.models import Users
            def setup(name, banner):
                taken = Users.query.add_columns(Users.id).filter_by(name=name).first()
                requests.put("https://files.example.com/banner", data=banner, timeout=5)
                db.session.commit()
            """,
            line=6,
            message="the transaction that `Users.query.add_columns()` began",
        ),
        Invalid(
            # the branch that queried may fall through to the request
            """
            import requests
            from app import db
            def login(provider, email):
                if provider == "facebook":
                    user = db.session.query(User).filter_by(email=email).first()
                    if user is not None:
                        return user
                return requests.post("https://auth/token", json={}, timeout=5)
            """,
            line=8,
            message="the transaction that `db.session.query()` began",
        ),
        Invalid(
            """
            import httpx
            from sqlalchemy.orm import Session
            def sync(engine, item_id):
                with Session(engine) as session:
                    item = session.get(Item, item_id)
                    session.execute(select(Item))
                    httpx.post("https://x", json={})
            """,
            line=7,
        ),
        Invalid(
            """
            import psycopg2, requests
            def export(dsn):
                conn = psycopg2.connect(dsn, connect_timeout=5)
                with conn:
                    with conn.cursor() as cur:
                        cur.execute("select 1")
                        requests.get("https://x", timeout=5)
            """,
            line=7,
        ),
        Invalid(
            """
            import requests
            from django.db import transaction
            def establish_basket(user, *, no_delay=False):
                if no_delay:
                    requests.post("https://x", json={}, timeout=5)
                return user
            def add_to_cart(user):
                with transaction.atomic():
                    establish_basket(user, no_delay=True)
            """,
            line=9,
            message="`add_to_cart` -> `establish_basket` -> `requests.post`",
        ),
        Invalid(
            """
            import requests
            from trino.dbapi import IsolationLevel, connect
            def migrate():
                conn = connect(host="trino", isolation_level=IsolationLevel.REPEATABLE_READ)
                cur = conn.cursor()
                cur.execute("select user_id from enrollments")
                requests.get("https://x", timeout=5)
            """,
            line=7,
            message="the transaction that `cur.execute()` began",
        ),
        Invalid(
            """
            import aiohttp
            async def sync(pool, session: aiohttp.ClientSession):
                async with pool.acquire() as conn:
                    rows = await conn.fetch("select 1")
                    await session.post("https://x", json=rows)
            """,
            line=5,
            message="`pool.acquire()`",
        ),
        Invalid(
            """
            import httpx
            async def sync(pool, client: httpx.AsyncClient):
                conn = await pool.acquire()
                rows = await conn.fetch("select 1")
                await client.post("https://x", json=rows)
                await pool.release(conn)
                await client.post("https://x/done")
            """,
            line=5,
            message="inside the connection that `pool.acquire()` checked out (example.py:3): it holds a pooled DB connection",
        ),
    ]

    def check_project(self, ctx: ProjectContext) -> None:
        _Judge(ctx).run()


@dataclass(frozen=True)
class _Held:
    """A DB scope open at a call: ``scope`` is where the connection is taken (in a project
    wrapper, the wrapper's own scope), ``opened`` where the function enters it, and
    ``wrapper`` the project function in between, if any."""

    scope: DbScope
    opened: Place
    wrapper: Optional[FunctionSummary] = None
    spelling: str = ""


Path = Tuple[Call, ...]


class _Judge:
    def __init__(self, ctx: ProjectContext) -> None:
        self.ctx = ctx
        self.graph: ProjectGraph = ctx.graph
        self.extend_clients = tuple(ctx.settings.extend_clients)
        self._provided: Dict[str, Optional[_Held]] = {}
        self._paths: Dict[Tuple[Any, ...], Optional[Tuple[Path, str]]] = {}
        self._filled: Set[int] = set()  # requests whose object fills in the timeout
        self._ends: Dict[Tuple[int, Optional[int]], Tuple[List[Tuple[int, int]], List[Tuple[int, ...]]]] = {}
        self._released: Optional[Set[int]] = None  # calls after their function's own commit
        self._elsewhere: Dict[str, bool] = {}  # functions a decorator runs on another thread
        self._ending: Dict[str, bool] = {}  # functions that commit somewhere (``_ends_within``)
        self._open: Dict[str, bool] = {}  # functions that return with a transaction open (``_leaves_open``)
        self._later_ends: Dict[Tuple[int, int], List[Tuple[int, int]]] = {}  # (function, scope) → its ending calls
        self._held: Dict[Tuple[int, int], Optional[_Held]] = {}  # (function, DB scope) → what it holds

    def run(self) -> None:
        for function in self.graph.functions:
            if not self.ctx.reports_in(function.place.path):
                continue  # its findings are placed at its own calls
            if self.ctx.in_test_code(function.place.path):
                continue  # the test database's transaction: the code under test is judged where it holds one
            decorated = self._decorated(function)
            for call in function.calls:
                if call.later:
                    continue
                held = [
                    h for h, i in ((self._active(function, i), i) for i in call.db_scopes)
                    if h is not None
                    and not (function.db_scopes[i].implicit and self._ended_before(function, i, call))
                    and not (function.db_scopes[i].implicit == "until" and not self._ended_after(function, i, call))
                ]
                if decorated is not None and not (decorated.scope.implicit and self._ended_before(function, None, call)):
                    held.insert(0, decorated)
                if not held:
                    continue
                found = self._path(function, call, bool(held[-1].scope.implicit))
                if found is not None:
                    self._report(function, held[-1], *found)

    # --- which scopes hold a connection -------------------------------------------------------

    def _ended_before(self, function: FunctionSummary, index: Optional[int], call: Call) -> bool:
        """An implicit transaction that a call before ``call`` ends, with no query in between to
        begin another: a call of a function (of any module) whose last act commits it
        (``sync_shelves()`` ending in ``ub.session_commit()``). ``index``: the function's own
        DB scope; None for one a project decorator opened around it (``@requires_auth``
        querying the same session), which any query of the function may begin again."""
        ends, queries = self._ends_of(function, index)
        at = (call.place.line, call.place.column)
        last = next((end for end in reversed(ends) if end < at), None)
        return last is not None and not any(last < query < at for query in queries)

    def _ends_of(self, function: FunctionSummary, index: Optional[int]) -> Tuple[List[Tuple[int, int]], List[Tuple[int, ...]]]:
        """Where calls that end the transaction of the DB scope ``index`` are (None: every
        scope's), and where queries that begin one are, in order."""
        key = (id(function), index)
        known = self._ends.get(key)
        if known is None:
            scopes = function.db_scopes if index is None else [function.db_scopes[index]]
            near = function.place.path
            ends = sorted(
                (c.place.line, c.place.column) for c in function.calls
                if (index is None or index in c.db_scopes) and not c.later and self._commits(self.graph.callee(c, near))
            )
            queries = [tuple(int(part) for part in query.split(":")) for scope in scopes if scope.implicit for query in scope.queries]
            if index is None:
                queries.extend((scope.place.line, scope.place.column) for scope in scopes if scope.implicit)
            known = self._ends[key] = (ends, queries)
        return known

    def _ended_after(self, function: FunctionSummary, index: int, call: Call) -> bool:
        """A transaction open to the end of the function (``implicit="until"``) that a call
        after ``call`` ends: one of a function that commits it, as its last act or on the way
        (``self.service.update_one(...)``, whose repository's ``update`` commits)."""
        key = (id(function), index)
        ends = self._later_ends.get(key)
        if ends is None:
            near = function.place.path
            ends = self._later_ends[key] = [
                (c.place.line, c.place.column) for c in function.calls
                if index in c.db_scopes and not c.later and self.graph.is_project_name(c.target)
                and (self._ends_within(self.graph.callee(c, near)) or self._session_end(c, near))
            ]
        at = (call.place.line, call.place.column)
        return any(end > at for end in ends)

    def _session_end(self, call: Call, near: str) -> bool:
        """Whether a project name the call calls holds a session's commit (``repo.commit()``
        with ``self.commit = session.commit`` in the repository's class)."""
        held = self.graph.values.of(call.target, near)
        return bool(held) and all(h.kind == "object" and ending_method(h.name) for h in held)

    def _ends_within(self, function: Optional[FunctionSummary]) -> bool:
        """Whether ``function`` commits the transaction it runs in somewhere: itself, or in a
        function it calls, at any depth."""
        if function is None:
            return False
        known = self._ending.get(function.name)
        if known is None:
            self._ending[function.name] = False  # a recursive call ends nothing new
            near = function.place.path
            known = self._ending[function.name] = function.commits_within or self._commits(function) or any(
                not c.later and self.graph.is_project_name(c.target) and self._ends_within(self.graph.callee(c, near))
                for c in function.calls
            )
        return known

    def _leaves_open(self, function: Optional[FunctionSummary]) -> bool:
        """Whether ``function`` returns with a transaction of a session that outlives it open:
        its own last query, or a project call after its last commit that leaves one open, with
        no call after it that ends it (``HttpRepo.get_one`` returning what the repository's
        ``get_one`` queried), through any number of such wrappers."""
        if function is None:
            return False
        if function.leaves_open or (function.leaves_open_by and self._given_a_class(function, function.leaves_open_by)):
            return True
        if not function.open_through:
            return False
        known = self._open.get(function.name)
        if known is not None:
            return known
        self._open[function.name] = False  # a recursive call leaves nothing open of its own
        self._open[function.name] = found = self._left_open_through(function)
        return found

    def _given_a_class(self, function: FunctionSummary, parameter: str) -> bool:
        """Whether a call of ``function`` in the project hands ``parameter`` a project class (the
        model whose ``.query`` it queries through)."""
        return any(held.kind == "class" for held in self.graph.values.parameter(function.name, parameter, function.place.path))

    def _left_open_through(self, function: FunctionSummary) -> bool:
        """A call after ``function``'s last commit that leaves a transaction open, and no
        call after it that commits."""
        near = function.place.path
        for at in function.open_through:
            call = call_at(function, at)
            if call is not None and self._leaves_open(self.graph.callee(call, near)):
                after = (call.place.line, call.place.column)
                return not any(
                    (c.place.line, c.place.column) > after and not c.later and self._commits(self.graph.callee(c, near))
                    for c in function.calls
                )
        return False

    def _commits(self, function: Optional[FunctionSummary], depth: int = 0) -> bool:
        """Whether ``function``'s last act ends the transaction it runs in, itself or through the
        function it calls last."""
        if function is None or not function.commits or depth > 4:
            return False
        if function.commits == ".":
            return True
        last = call_at(function, function.commits)
        return last is not None and self._commits(self.graph.callee(last, function.place.path), depth + 1)

    def _active(self, function: FunctionSummary, index: int) -> Optional[_Held]:
        key = (id(function), index)
        if key not in self._held:
            self._held[key] = self._holds(function, index)
        return self._held[key]

    def _holds(self, function: FunctionSummary, index: int) -> Optional[_Held]:
        scope = function.db_scopes[index]
        if scope.implicit in ("after", "until"):
            # the project function called there returns with its transaction open
            near = function.place.path
            call = next((c for c in function.calls if c.place == scope.place), None)
            callee = self.graph.callee(call, near) if call is not None else None
            return _Held(scope, scope.place, spelling=scope.description) if self._leaves_open(callee) else None
        if scope.implicit and self._project_method(function, scope.place):
            return None
        if scope.via is None or self._library_scope(scope.via, function.place.path):
            return _Held(scope, scope.place, spelling=scope.description)
        opening = next((c for c in function.calls if c.place == scope.place), None)
        inner = self._provider(scope.via, function.place.path, opening)
        if inner is None:
            return None
        return _Held(inner.scope, scope.place, inner.wrapper, scope.description)

    def _library_scope(self, name: str, near: str) -> bool:
        """``name`` is a project class derived from a library's scope class (``class
        LockedAtomicTransaction(Atomic)``): entering one opens that scope."""
        return any(
            held.kind == "class" and self.graph.values.library_base(held.name) in SCOPE_CLASSES
            for held in self.graph.values.of(name, near)
        )

    def _project_method(self, function: FunctionSummary, place: Place) -> bool:
        """The query that would open a transaction is a method of a project class (a
        ``DBCursor`` reached as ``db.conn.cursor()``) that sends no query through an object
        known to be a DB-API driver's: whether a transaction stays open is not the cursor's
        name to tell (rotki's wrapper runs sqlcipher in autocommit mode)."""
        near = function.place.path
        for call in function.calls:
            method = self.graph.callee(call, near) if call.place == place else None
            if method is not None:
                # unless it sends the query through a driver's cursor itself: a transparent wrapper
                return not any(scope.implicit == "driver" for scope in method.db_scopes)
        return False

    def _decorated(self, function: FunctionSummary) -> Optional[_Held]:
        """A project decorator (or context manager used as one) that runs the function in a scope."""
        for name, place in function.decorators:
            inner = self._provider(name, function.place.path)
            if inner is not None:
                return _Held(inner.scope, place, inner.wrapper, f"`@{name.rsplit('.', 1)[-1]}`")
        return None

    def _provider(self, name: str, near: str, call: Optional[Call] = None) -> Optional[_Held]:
        """What the project function ``name`` holds while it runs the caller's code: a context
        manager yielding inside a scope, or a decorator calling the decorated function in one.
        ``call``: the call that opens it, whose object may tell the method (``db.connect()``,
        ``db`` a module's instance of a project class)."""
        function = self.graph.resolve(name, near)
        if function is None and call is not None:
            function = self.graph.callee(call, near)
        if function is None:
            return None
        if function.name in self._provided:
            return self._provided[function.name]  # None while in progress: a cycle
        self._provided[function.name] = None
        found = self._held_around(function, lambda scope: scope.yields)
        if found is None:
            prefix = function.name + ".<locals>."
            for inner in self.graph.module_of(function).functions.values():
                if inner.name.startswith(prefix):
                    found = self._held_around(inner, lambda scope: scope.wraps)
                    if found is not None:
                        break
        if found is not None:
            found = _Held(found.scope, found.opened, function, found.spelling)
        self._provided[function.name] = found
        return found

    def _runs_elsewhere(self, function: FunctionSummary) -> bool:
        """Whether a project decorator of ``function`` hands it to a thread, an executor or a
        queue and never calls it itself, or only where a setting says so (``@postpone``:
        ``Thread(target=function).start()``): its caller does not wait for what it does."""
        known = self._elsewhere.get(function.name)
        if known is None:
            known = self._elsewhere[function.name] = any(
                enqueued_when_called(name) or self._hands_over(name, function.place.path) for name, _ in function.decorators
            )
        return known

    def _hands_over(self, name: str, near: str) -> bool:
        factory = self.graph.resolve(name, near)
        if factory is None:
            return False
        prefix = factory.name + ".<locals>."
        inners = [inner for inner in self.graph.module_of(factory).functions.values() if inner is factory or inner.name.startswith(prefix)]
        handed = any(
            defers(call.target) and any(ref[0] == "ref" and calls_a_parameter(ref[1], prefix, factory.name) for _, ref in call.passed)
            for inner in inners for call in inner.calls
        )
        # a wrapper that calls the function itself only where a setting turns the hand-over off
        return handed and not any(
            calls_a_parameter(call.target, prefix, factory.name)
            for inner in inners if not inner.defers_in_transaction for call in inner.calls
        )

    def _held_around(self, function: FunctionSummary, around) -> Optional[_Held]:  # type: ignore[no-untyped-def]
        for index, scope in enumerate(function.db_scopes):
            if around(scope):
                held = self._active(function, index)
                if held is not None:
                    return held
        return None

    # --- which calls reach another service ---------------------------------------------------------

    def _request(self, call: Call, near: str) -> Optional[str]:
        """The client request ``call`` makes, by its canonical name, if it makes one."""
        # whatever fills in its timeout: a request holds the connection for as long as it waits
        names = [(call.target, False)] + self.graph.object_methods(call.target, near)
        for name, sets_timeout in names:
            if sends_request(name, self.extend_clients) and not self._mocked(name, call):
                if sets_timeout and not (call.arguments is not None and "timeout" in call.arguments.keywords):
                    self._filled.add(id(call))  # its own arguments do not say how long it waits
                return name
        return None

    def _mocked(self, name: str, call: Call) -> bool:
        spec = spec_for(name, self.extend_clients)
        library = spec.library if spec is not None else name.split(".", 1)[0]
        return answered(call.mocked, library, name)

    def _path(self, function: FunctionSummary, call: Call, implicit: bool = False) -> Optional[Tuple[Path, str]]:
        """The calls from ``call`` to the first request it leads to (the request last), and
        the client method that request calls. ``implicit``: the transaction held is a
        session's implicit one, which a function on the way that commits ends for the calls it
        makes after."""
        near = function.place.path
        client = self._request(call, near)
        if client is not None:
            return (call,), client
        if defers(call.target):
            return None
        callee = self.graph.callee(call, near)
        if callee is None or callee.defers_in_transaction or self._runs_elsewhere(callee):
            return None
        # what the call passes may rule some of the callee's calls out (``if no_delay:``), or
        # be what the callee calls (``run_now(lambda: requests.get(url))``)
        context = self.graph.conditions.enter(function, call, callee, {})
        handed = self.graph.calls_handed(callee)
        # (the class of the function: the ``self`` of a mixin's hooks on the way, ``_mixed_in``)
        origin = split_last(function.name)[0]
        key = (callee.name, frozenset(context.items()), id(call) if handed else 0, implicit, origin)
        if key not in self._paths:
            self._paths[key] = self._first_request(callee, (function, call) if context or handed else None, implicit, origin)
        below = self._paths[key]
        if below is None or self._mocked(below[1], call) or self._replaced_on_the_way(call, (call,) + below[0][:-1]):
            return None  # a test double the caller installed (``@responses.activate``) answers it
        return (call,) + below[0], below[1]

    def _replaced_on_the_way(self, call: Call, steps: Path) -> bool:
        """Whether a patch of the test that makes ``call`` replaces a project function one of
        ``steps`` runs (``mocker.patch("app.notifications.send_email")``, by the name a module
        imports it under): its double answers there, and nothing is sent."""
        graph = self.graph
        replaced = {
            held.name for entry in call.mocked if graph.is_project_name(entry)
            for held in graph.values.of(entry, call.place.path) if held.kind == "function"
        }
        return bool(replaced) and any(step.target in replaced for step in steps)

    def _first_request(
        self, start: FunctionSummary, entry: Optional[Tuple[FunctionSummary, Call]], implicit: bool = False,
        origin: Optional[str] = None,
    ) -> Optional[Tuple[Path, str]]:
        released = self._after_commit if implicit else lambda call: False

        def follow(call: Call, callee: FunctionSummary) -> bool:
            return (
                not call.later and not defers(call.target) and not callee.defers_in_transaction and not released(call)
                and not self._runs_elsewhere(callee)
            )

        for function, path, running in self.graph.reachable(start, follow, entry, origin):
            for call in running:
                if released(call):
                    continue
                client = self._request(call, function.place.path) if not call.later else None
                if client is not None:
                    return path + (call,), client
        return None

    def _after_commit(self, call: Call) -> bool:
        """Whether ``call`` comes after the commit its function makes with no query after it
        (``export.state = "done"; db.session.commit(); notify_hub(...)``): an implicit
        transaction is over there."""
        if self._released is None:
            self._released = {
                id(c) for function in self.graph.functions if function.committed_at
                for at in (tuple(int(part) for part in function.committed_at.split(":")),)
                for c in function.calls if (c.place.line, c.place.column) > at
            }
        return id(call) in self._released

    # --- the finding -----------------------------------------------------------------------------

    def _wait(self, client: str, request: Call, into: Optional[Call]) -> Optional[str]:
        """How long ``request`` may wait: from its arguments, or from the constant of another
        module it passes (``timeout=settings.STREAM_TIMEOUT``), or from the default of the
        wrapper's parameter it passes when the call ``into`` that wrapper leaves it out
        (``def make_request(url, timeout=30)`` called as ``make_request(url)``)."""
        wait = longest_wait(client, request.arguments, self.extend_clients)
        if wait is None:
            found = passed_constant(self.ctx, request, request.place.path, client)
            if found is not None:
                wait = wait_in_words(found[0], found[1])
        if wait is None and into is not None:
            wait = _default_wait(client, request, into, self.extend_clients)
        return wait

    def _report(self, function: FunctionSummary, held: _Held, path: Path, client: str) -> None:
        last = path[-1]
        names = [_short(function.name)] + [_short(call.target) for call in path[:-1]] + [client]
        route = " -> ".join(f"`{name}`" for name in names)
        scope = held.scope
        where = held.spelling or scope.description
        where = f"{where} ({held.opened.short()})"
        if held.wrapper is not None and held.scope.description != held.spelling:
            where = f"{where}, which opens {scope.description} ({scope.place.short()})"
        locks = ", and rows locked by `select_for_update()`," if scope.locks else ""
        wait = None if id(last) in self._filled else self._wait(client, last, path[-2] if len(path) > 1 else None)
        how_long = f"for as long as `{client}` waits: {wait}" if wait is not None else "until the call returns"
        defer = " (or defer it with `transaction.on_commit`)" if "atomic" in scope.description else ""
        message = (
            f"{route} runs inside {where}: it holds {scope.holds}{locks} {how_long}; "
            f"call the other service before the scope opens or after it closes{defer}"
        )
        related: List[Tuple[Place, str]] = [(held.opened, f"DB scope: {held.spelling or scope.description}")]
        if held.wrapper is not None:
            related.append((scope.place, f"`{_short(held.wrapper.name)}` opens {scope.description}"))
        related.append((last.place, f"request: `{client}`"))
        self.ctx.report(path[0].place, message, related)


def _default_wait(client: str, request: Call, into: Call, extend_clients: Iterable[str]) -> Optional[str]:
    """The wait of ``request`` whose timeout is its function's parameter, when the call ``into``
    that function surely leaves the parameter to its default: it names it nowhere and passes
    fewer values by position than come before it (a bound ``self`` counted), with no
    ``*args``/``**kwargs``."""
    spec = spec_for(client, extend_clients)
    given = request.arguments.value(spec.keyword) if spec is not None and spec.keyword and request.arguments is not None else None
    passed = into.arguments
    if given is None or given.parameter is None or given.default is None or given.position is None or passed is None:
        return None
    if passed.star or passed.double_star or given.parameter in passed.keywords or passed.positional + 1 > given.position:
        return None
    value = value_from_data(given.default)
    return wait_in_words(value, f"{given.parameter}={given.default_text}") if value is not None else None


def _short(name: str) -> str:
    """``app.http.fetch`` → ``fetch``; methods keep their class (``Client.get``)."""
    parts = name.split(".")
    return ".".join(parts[-2:]) if len(parts) > 2 and parts[-2][:1].isupper() else parts[-1]
