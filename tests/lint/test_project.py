"""The project pass over real multi-module trees on disk, through the CLI: calls followed
across functions and modules (aliases, re-exports, methods), recursion and import cycles,
subsets of files, and the cache of summaries."""

from __future__ import annotations

import json

from resilint.lint.checker import Checker
from resilint.lint.config import Settings
from resilint.lint.modules import module_names
from resilint.lint.registry import all_rules
from tests.conftest import write_tree

THREE_LAYERS = {
    "app/__init__.py": "",
    "app/transport.py": """
        import requests
        from requests.adapters import HTTPAdapter
        from urllib3 import Retry

        session = requests.Session()
        session.mount("https://", HTTPAdapter(max_retries=Retry(total=2)))

        def send(url):
            return session.get(url, timeout=5)
    """,
    "app/client.py": """
        import random
        import time
        from app import transport as t

        def fetch(url):
            for attempt in range(3):
                try:
                    return t.send(url)
                except ConnectionError:
                    time.sleep(random.uniform(0, 2 ** attempt))
            raise RuntimeError("gave up")
    """,
    "app/jobs.py": """
        import tenacity
        from app.client import fetch as get_it

        @tenacity.retry(stop=tenacity.stop_after_attempt(4), wait=tenacity.wait_random(0, 1))
        def sync(url):
            return get_it(url)
    """,
}


def _findings(cli, root, *args):
    result = cli(["check", "--select", "RES204", "--format", "json", *args], root)
    assert result.exit_code in (0, 1), result.output + result.stderr
    return json.loads(result.output)["findings"]


def test_three_layers_across_three_modules(cli, tmp_path):
    write_tree(tmp_path, THREE_LAYERS)
    findings = _findings(cli, tmp_path, "--no-cache", "app")
    by_path = {f["path"]: f for f in findings}
    assert sorted(by_path) == ["app/client.py", "app/jobs.py"]
    outer = by_path["app/jobs.py"]
    assert outer["line"] == 6  # the call in the outer layer that leads inward
    assert (
        "tenacity 4 attempts (app/jobs.py:4) x a hand-written retry loop 3 attempts (app/client.py:6)"
        " x urllib3 Retry total=2 (app/transport.py:6) = up to 36 calls per operation"
    ) in outer["message"]
    assert "`fetch`" in outer["message"]
    related = {(r["path"], r["line"]) for r in outer["related"]}
    assert {("app/jobs.py", 4), ("app/client.py", 6), ("app/transport.py", 6)} <= related
    inner = by_path["app/client.py"]
    assert inner["line"] == 8
    assert "a hand-written retry loop 3 attempts (app/client.py:6) x urllib3 Retry total=2 (app/transport.py:6) = up to 9" in inner["message"]


def test_one_file_alone_resolves_through_the_rest_of_the_project(cli, tmp_path):
    write_tree(tmp_path, THREE_LAYERS)
    whole = [f for f in _findings(cli, tmp_path, "--no-cache", "app") if f["path"] == "app/jobs.py"]
    alone = _findings(cli, tmp_path, "--no-cache", "app/jobs.py")
    assert alone == whole
    cached_alone = _findings(cli, tmp_path, "app/jobs.py")  # fills the cache
    assert _findings(cli, tmp_path, "app/jobs.py") == cached_alone == whole


def test_same_function_name_in_two_modules_is_not_confused(cli, tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """
            import tenacity
            @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
            def load(x):
                return x.read()
        """,
        "pkg/b.py": """
            def load(x):
                return x.read()
        """,
        "pkg/use.py": """
            import tenacity
            from pkg.b import load
            @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
            def run(x):
                return load(x)
        """,
    })
    assert _findings(cli, tmp_path, "--no-cache", "pkg") == []
    (tmp_path / "pkg/use.py").write_text((tmp_path / "pkg/use.py").read_text().replace("pkg.b", "pkg.a"))
    findings = _findings(cli, tmp_path, "--no-cache", "pkg")
    assert [(f["path"], f["line"]) for f in findings] == [("pkg/use.py", 5)]


def test_recursion_and_import_cycles_end(cli, tmp_path):
    write_tree(tmp_path, {
        "cyc/__init__.py": "from cyc.one import ping\n",
        "cyc/one.py": """
            import tenacity
            from cyc import two
            @tenacity.retry(stop=tenacity.stop_after_attempt(2), wait=tenacity.wait_random(0, 1))
            def ping(n):
                return two.pong(n - 1) if n else ping(n)
        """,
        "cyc/two.py": """
            from cyc import one
            def pong(n):
                return one.ping(n) if n else pong(n + 1)
        """,
    })
    findings = _findings(cli, tmp_path, "--no-cache", "cyc")
    # ping runs again inside its own attempt (directly, and through pong): its retry decorator
    # runs again there, 2 x 2 calls; the walks through the cycles end
    assert [(f["code"], f["path"], f["line"]) for f in findings] == [("RES204", "cyc/one.py", 5)]
    assert "tenacity 2 attempts (cyc/one.py:3) x tenacity 2 attempts (cyc/one.py:3)" in findings[0]["message"]


def test_re_export_through_package_init(cli, tmp_path):
    write_tree(tmp_path, {
        "lib/__init__.py": "from lib._impl import call_api\n",
        "lib/_impl.py": """
            import stamina
            @stamina.retry(on=ConnectionError, attempts=5)
            def call_api(client):
                return client.get("/x")
        """,
        "main.py": """
            import backoff
            import lib
            @backoff.on_exception(backoff.expo, ConnectionError, max_tries=3)
            def handler(client):
                return lib.call_api(client)
        """,
    })
    findings = _findings(cli, tmp_path, "--no-cache", ".")
    assert len(findings) == 1
    assert findings[0]["path"] == "main.py"
    assert "backoff 3 attempts (main.py:3) x stamina 5 attempts (lib/_impl.py:2) = up to 15 calls" in findings[0]["message"]


def test_noqa_on_the_reported_line_suppresses(cli, tmp_path):
    write_tree(tmp_path, THREE_LAYERS)
    jobs = tmp_path / "app/jobs.py"
    jobs.write_text(jobs.read_text().replace("return get_it(url)", "return get_it(url)  # noqa: RES204"))
    assert [f["path"] for f in _findings(cli, tmp_path, "--no-cache", "app")] == ["app/client.py"]


def test_summaries_come_from_the_cache_and_an_edit_reanalyses_one_file(cli, tmp_path, monkeypatch):
    write_tree(tmp_path, THREE_LAYERS)
    first = _findings(cli, tmp_path, "app")
    import resilint.lint.runner as runner_module

    analysed = []  # the files handed to worker processes, which parse them
    real_check_all = runner_module._check_all

    def counting(tasks, *args, **kwargs):
        analysed.extend(path for path, _ in tasks)
        return real_check_all(tasks, *args, **kwargs)

    monkeypatch.setattr(runner_module, "_check_all", counting)
    assert _findings(cli, tmp_path, "app") == first
    assert analysed == []
    transport = tmp_path / "app/transport.py"
    transport.write_text(transport.read_text().replace("Retry(total=2)", "Retry(total=0)"))
    after = _findings(cli, tmp_path, "app")
    assert analysed == ["app/transport.py"]
    # the session no longer retries: only tenacity x the loop remains, and the loop is alone
    assert [f["path"] for f in after] == ["app/jobs.py"]
    assert "= up to 12 calls per operation" in after[0]["message"]


POST_BELOW = {
    "shop/__init__.py": "",
    "shop/gateway.py": """
        import requests

        def _post(url, body):
            return requests.post(url, json=body, timeout=5)

        def charge(order):
            return _post("https://pay.example/charges", order)

        def charge_with_key(order, key):
            return requests.post("https://pay.example/charges", json=order, timeout=5,
                                 headers={"Idempotency-Key": key})
    """,
    "shop/service.py": """
        from shop import gateway

        def checkout(order):
            return gateway.charge(order)

        def checkout_safely(order, key):
            return gateway.charge_with_key(order, key)
    """,
    "shop/tasks.py": """
        import requests
        from celery import shared_task
        from tenacity import retry, stop_after_attempt, wait_random_exponential
        from shop.service import checkout, checkout_safely

        @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=2))
        def deliver(order):
            return checkout(order)

        @retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=2))
        def deliver_safely(order, key):
            return checkout_safely(order, key)

        @shared_task(autoretry_for=(requests.ConnectionError,), retry_backoff=True, max_retries=3)
        def settle(order):
            checkout(order)
    """,
}


def test_a_post_modules_below_the_retry_that_repeats_it(cli, tmp_path):
    write_tree(tmp_path, POST_BELOW)
    result = cli(["check", "--select", "RES201", "--format", "json", "--no-cache", "shop"], tmp_path)
    findings = json.loads(result.output)["findings"]
    assert [(f["path"], f["line"]) for f in findings] == [("shop/tasks.py", 8), ("shop/tasks.py", 16)]
    first = findings[0]
    assert first["message"].startswith(
        "`checkout` sends a POST (`requests.post`) through `charge` -> `_post` without an `Idempotency-Key` "
        "header and is retried here by a tenacity retry"
    )
    assert ("shop/gateway.py", 4) in {(r["path"], r["line"]) for r in first["related"]}
    assert "celery" in findings[1]["message"]
    alone = cli(["check", "--select", "RES201", "--format", "json", "--no-cache", "shop/tasks.py"], tmp_path)
    assert json.loads(alone.output)["findings"] == findings


def test_a_retry_policy_defined_in_another_module(cli, tmp_path):
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/policies.py": """
            import tenacity
            api_retry = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random_exponential(max=2))
        """,
        "app/jobs.py": """
            import requests
            from app.policies import api_retry

            def _post(body):
                return requests.post("https://x.example", json=body, timeout=5)

            @api_retry
            def deliver(body):
                return _post(body)
        """,
        "app/reads.py": """
            import boto3
            from app import policies

            s3 = boto3.client("s3", config=None)

            @policies.api_retry
            def read(key):
                return s3.get_object(Bucket="b", Key=key)
        """,
    })
    result = cli(["check", "--select", "RES201,RES204", "--format", "json", "--no-cache", "app"], tmp_path)
    findings = json.loads(result.output)["findings"]
    assert [(f["path"], f["line"], f["code"]) for f in findings] == [("app/jobs.py", 9, "RES201"), ("app/reads.py", 8, "RES204")]
    assert "tenacity 3 attempts (app/policies.py:2) x botocore client retries" in findings[1]["message"]


def test_a_delay_computed_by_a_helper_of_another_module(cli, tmp_path):
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/backoff.py": """
            import random

            BASE = 0.5

            def exponential(attempt):
                return BASE * 2 ** attempt

            def jittered(attempt):
                return random.uniform(0, BASE * 2 ** attempt)
        """,
        "app/sync.py": """
            import time
            import requests
            from app import backoff

            def pull(url):
                for attempt in range(5):
                    try:
                        return requests.get(url, timeout=(1, 5))
                    except requests.ConnectionError:
                        time.sleep(backoff.exponential(attempt))
                raise RuntimeError("gave up")

            def pull_jittered(url):
                for attempt in range(5):
                    try:
                        return requests.get(url, timeout=(1, 5))
                    except requests.ConnectionError:
                        time.sleep(backoff.jittered(attempt))
                raise RuntimeError("gave up")
        """,
    })
    result = cli(["check", "--select", "RES202", "--format", "json", "--no-cache", "app"], tmp_path)
    findings = json.loads(result.output)["findings"]
    assert [(f["path"], f["line"]) for f in findings] == [("app/sync.py", 10)]
    assert "waits what `exponential` (app/backoff.py:5) returns, which grows exponentially" in findings[0]["message"]


def test_module_names_from_project_roots_src_layout_and_namespace_packages(cli, tmp_path):
    http = """
        import requests
        def fetch(url, **kwargs):
            return requests.get(url, **kwargs)
    """
    write_tree(tmp_path, {
        "pyproject.toml": "[tool.resilint]\n",
        # src layout with a regular package
        "src/app/__init__.py": "",
        "src/app/http.py": http,
        "src/app/views.py": "from app.http import fetch\n\ndef show(url):\n    return fetch(url)\n",
        # a namespace package (no __init__.py), imported from the project root
        "services/billing/http.py": http,
        "services/billing/sync.py": "from services.billing import http\n\ndef pull(url):\n    return http.fetch(url)\n",
    })
    assert _codes(cli, tmp_path, "RES101", ".") == [("services/billing/sync.py", 4, "RES101"), ("src/app/views.py", 4, "RES101")]


def test_a_src_layout_package_init_is_named_as_its_package(cli, tmp_path):
    # ``src/pod/__init__.py`` is the package ``pod`` (as its submodule is ``pod.util``), not
    # ``src.pod``: the socket default it sets when imported bounds its submodule's connections
    write_tree(tmp_path, {
        "pyproject.toml": "[tool.resilint]\n",
        "src/pod/__init__.py": "import socket\n\nsocket.setdefaulttimeout(20)\n",
        "src/pod/util.py": "import http.client\n\ndef head(host):\n    return http.client.HTTPSConnection(host)\n",
        "src/other/__init__.py": "",
        "src/other/util.py": "import http.client\n\ndef head(host):\n    return http.client.HTTPSConnection(host)\n",
    })
    assert _codes(cli, tmp_path, "RES101", ".") == [("src/other/util.py", 4, "RES101")]
    assert module_names(str(tmp_path / "src/pod/__init__.py"), [str(tmp_path / "src"), str(tmp_path)])[0] == "pod"


def test_a_django_manage_py_directory_is_an_import_root(cli, tmp_path):
    # ``manage.py`` puts its own directory on ``sys.path``: ``apps/common/http.py`` is
    # ``common.http`` to the code beside it, even though ``apps/`` is a package too
    write_tree(tmp_path, {
        "pyproject.toml": "[tool.resilint]\n",
        "apps/__init__.py": "",
        "apps/manage.py": "import sys\n",
        "apps/common/__init__.py": "",
        "apps/common/http.py": "import requests\n\ndef fetch(url, **kwargs):\n    return requests.get(url, **kwargs)\n",
        "apps/notify/__init__.py": "",
        "apps/notify/views.py": "from common.http import fetch\n\ndef show(url):\n    return fetch(url)\n",
    })
    assert _codes(cli, tmp_path, "RES101", ".") == [("apps/notify/views.py", 4, "RES101")]


def _codes(cli, root, select, *paths):
    result = cli(["check", "--select", select, "--format", "json", "--no-cache", *paths], root)
    assert result.exit_code in (0, 1), result.output + result.stderr
    return [(f["path"], f["line"], f["code"]) for f in json.loads(result.output)["findings"]]


def test_modules_with_the_same_name_are_told_apart_by_where_they_are_used(cli, tmp_path):
    helper = "import requests\n\ndef get(url, **kw):\n    return requests.get(url, **kw{})\n"
    main = "from helpers import get\n\ndef run():\n    get('u')\n"
    write_tree(tmp_path, {
        "pyproject.toml": "[tool.resilint]\n",
        "a/helpers.py": helper.format(""), "a/main.py": main,
        "b/helpers.py": helper.format(", timeout=5"), "b/main.py": main,
        "svc1/src/app/__init__.py": "", "svc1/src/app/http.py": helper.format(""),
        "svc1/src/app/views.py": "from app.http import get\n\ndef show():\n    get('u')\n",
        "svc2/src/app/__init__.py": "", "svc2/src/app/http.py": helper.format(""),
        "svc2/src/app/views.py": "from app.http import get\n\ndef show():\n    get('u')\n",
    })
    expected = [("a/main.py", 4, "RES101"), ("svc1/src/app/views.py", 4, "RES101"), ("svc2/src/app/views.py", 4, "RES101")]
    assert _codes(cli, tmp_path, "RES101", ".") == expected
    assert _codes(cli, tmp_path, "RES101", "b", "a") == expected[:1]
    assert _codes(cli, tmp_path, "RES101", "svc2", "svc1") == expected[1:]


RETRYING_CLIENTS = {
    "app/__init__.py": "",
    "app/clients.py": """
        import boto3
        import requests
        from requests.adapters import HTTPAdapter
        from urllib3 import Retry

        S3 = boto3.client("s3")
        session = requests.Session()
        session.mount("https://", HTTPAdapter(max_retries=Retry(total=5)))

        def retrying_session():
            s = requests.Session()
            s.mount("https://", HTTPAdapter(max_retries=Retry(total=2)))
            return s

        def get_s3():
            return boto3.client("s3")
    """,
    "app/jobs.py": """
        import random
        import time
        import requests
        import tenacity
        from app import clients
        from app.clients import S3, session, retrying_session

        RETRY = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 2))

        @RETRY
        def read(key):
            return S3.get_object(Bucket="b", Key=key)

        @RETRY
        def read_again(key):
            return clients.get_s3().get_object(Bucket="b", Key=key)

        @RETRY
        def sync(url):
            return session.get(url, timeout=(1, 5))

        def pull(url):
            s = retrying_session()
            for attempt in range(3):
                try:
                    return s.get(url, timeout=(1, 5))
                except requests.ConnectionError:
                    time.sleep(random.uniform(0, 2 ** attempt))
            raise RuntimeError("gave up")

        @RETRY
        def only_builds_a_session():
            return retrying_session()
    """,
}


def test_clients_that_retry_by_themselves_in_other_modules(cli, tmp_path):
    write_tree(tmp_path, RETRYING_CLIENTS)
    findings = json.loads(cli(["check", "--select", "RES204", "--format", "json", "--no-cache", "app"], tmp_path).output)["findings"]
    assert [(f["path"], f["line"]) for f in findings] == [
        ("app/jobs.py", 12), ("app/jobs.py", 16), ("app/jobs.py", 20), ("app/jobs.py", 26),
    ]
    messages = [f["message"] for f in findings]
    assert "tenacity 3 attempts (app/jobs.py:10) x botocore client retries (app/clients.py:6)" in messages[0]
    assert "x urllib3 Retry total=5 (app/clients.py:8) = up to 18 calls" in messages[2]
    assert "a hand-written retry loop 3 attempts (app/jobs.py:24) x urllib3 Retry total=2 (app/clients.py:12) = up to 9" in messages[3]


def test_a_decorator_that_wraps_its_function_in_a_retry(cli, tmp_path):
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/util.py": """
            import functools
            import backoff
            from botocore.exceptions import ClientError

            def aws_handle_regions(func):
                @backoff.on_exception(backoff.expo, ClientError, max_tries=4)
                @functools.wraps(func)
                def inner(*args, **kwargs):
                    return func(*args, **kwargs)
                return inner
        """,
        "app/sync.py": """
            import boto3
            from app.util import aws_handle_regions

            @aws_handle_regions
            def list_buckets(session: boto3.Session):
                client = session.client("s3")
                return client.list_buckets()
        """,
    })
    assert _codes(cli, tmp_path, "RES204", "app") == [("app/sync.py", 7, "RES204")]


def test_session_subclasses_across_modules(cli, tmp_path):
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/http.py": """
            import requests

            class Plain(requests.Session):
                pass

            class Configured(requests.Session):
                def request(self, method, url, **kwargs):
                    kwargs.setdefault("allow_redirects", False)
                    return super().request(method, url, **kwargs)

            plain = Plain()
        """,
        "app/use.py": """
            from app.http import Configured, plain

            def a(u):
                return plain.get(u)

            def b(u):
                return Configured().request("get", u)

            def get_response(u, **kwargs):
                return Configured().request("get", u, **kwargs)

            def c(u):
                return get_response(u)
        """,
    })
    assert _codes(cli, tmp_path, "RES101", "app") == [
        ("app/use.py", 4, "RES101"), ("app/use.py", 7, "RES101"), ("app/use.py", 13, "RES101"),
    ]


def test_a_post_helper_that_forwards_its_keyword_arguments(cli, tmp_path):
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/api.py": """
            import requests

            class Api:
                def __init__(self):
                    self.session = requests.Session()

                def _post(self, path, body, **kwargs):
                    return self.session.post("https://pay.example" + path, json=body, timeout=5, **kwargs)
        """,
        "app/tasks.py": """
            import backoff
            import requests
            from app.api import Api

            @backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=3)
            def charge(api: Api, key):
                api._post("/charges", {})
                api._post("/refunds", {}, headers={"Idempotency-Key": key})
        """,
    })
    assert _codes(cli, tmp_path, "RES201", "app") == [("app/tasks.py", 7, "RES201")]


def test_an_unchanged_tree_decodes_no_summary_and_a_change_outside_the_checked_files_counts(cli, tmp_path, monkeypatch):
    write_tree(tmp_path, THREE_LAYERS)
    from resilint.lint.cache import ResultCache

    first = _findings(cli, tmp_path, "app/jobs.py")
    assert "= up to 36 calls per operation" in first[0]["message"]
    decoded = []
    real_summary = ResultCache.summary
    monkeypatch.setattr(ResultCache, "summary", lambda self, key: decoded.append(key) or real_summary(self, key))
    assert _findings(cli, tmp_path, "app/jobs.py") == first
    assert decoded == []
    # app/transport.py is not checked, but the finding in app/jobs.py depends on it
    transport = tmp_path / "app/transport.py"
    transport.write_text(transport.read_text().replace("Retry(total=2)", "Retry(total=0)"))
    after = _findings(cli, tmp_path, "app/jobs.py")
    assert decoded != []
    assert "= up to 12 calls per operation" in after[0]["message"]
    assert after == _findings(cli, tmp_path, "--no-cache", "app/jobs.py")


def test_an_edit_that_leaves_every_summary_as_it_was_reuses_the_project_pass(cli, tmp_path, monkeypatch):
    write_tree(tmp_path, THREE_LAYERS)
    from resilint.lint.checker import Checker

    first = _findings(cli, tmp_path, "app")
    passes = []
    real_pass = Checker.project_findings
    monkeypatch.setattr(Checker, "project_findings", lambda self, *a, **k: passes.append(1) or real_pass(self, *a, **k))
    jobs = tmp_path / "app/jobs.py"
    # a comment on the finding's line and one after the code: the summary is the same
    jobs.write_text(jobs.read_text().replace("return get_it(url)", "return get_it(url)  # the nightly sync") + "# end\n")
    after = _findings(cli, tmp_path, "app")
    assert passes == [] and after == first
    # the fingerprint is made from the text of the line, read again from the edited file
    gitlab = ["check", "--select", "RES204", "--format", "gitlab"]
    cached = json.loads(cli([*gitlab, "app"], tmp_path).output)
    assert passes == []
    assert cached == json.loads(cli([*gitlab, "--no-cache", "app"], tmp_path).output)
    passes.clear()
    # a change to the code runs the pass again
    client = tmp_path / "app/client.py"
    client.write_text(client.read_text().replace("range(3)", "range(5)"))
    changed = _findings(cli, tmp_path, "app")
    assert passes != []
    assert any("= up to 60 calls per operation" in f["message"] for f in changed)
    assert changed == _findings(cli, tmp_path, "--no-cache", "app")


def test_an_edit_that_only_moves_lines_moves_the_project_pass_findings(cli, tmp_path, monkeypatch):
    write_tree(tmp_path, THREE_LAYERS)
    from resilint.lint.checker import Checker

    first = _findings(cli, tmp_path, "app")
    assert [(f["path"], f["line"]) for f in first] == [("app/client.py", 8), ("app/jobs.py", 6)]
    assert "(app/jobs.py:4) x a hand-written retry loop 3 attempts (app/client.py:6)" in first[1]["message"]
    passes = []
    real_pass = Checker.project_findings
    monkeypatch.setattr(Checker, "project_findings", lambda self, *a, **k: passes.append(1) or real_pass(self, *a, **k))
    jobs, client = tmp_path / "app/jobs.py", tmp_path / "app/client.py"
    # lines added between the decorator and the finding, and above the inner layer its message names
    jobs.write_text(jobs.read_text().replace("def sync", "# the nightly sync\n\ndef sync"))
    client.write_text("\n\n\n" + client.read_text())
    moved = _findings(cli, tmp_path, "app")
    assert passes == []
    assert moved == _findings(cli, tmp_path, "--no-cache", "app")
    assert [(f["path"], f["line"]) for f in moved] == [("app/client.py", 11), ("app/jobs.py", 8)]
    assert "(app/jobs.py:4) x a hand-written retry loop 3 attempts (app/client.py:9)" in moved[1]["message"]
    # a column that moves is a change: the pass runs
    jobs.write_text(jobs.read_text().replace("return get_it(url)", "return  get_it(url)"))
    assert _findings(cli, tmp_path, "app") == _findings(cli, tmp_path, "--no-cache", "app")
    assert passes != []


def test_a_relative_re_export_in_a_sub_package_init_is_followed(cli, tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "from .client import fetch\n",
        "pkg/sub/client.py": """
            import requests
            import tenacity

            @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
            def fetch(url):
                return requests.get(url, timeout=5)
        """,
        "pkg/jobs.py": """
            import tenacity
            from pkg.sub import fetch

            @tenacity.retry(stop=tenacity.stop_after_attempt(4), wait=tenacity.wait_random(0, 1))
            def sync(url):
                return fetch(url)
        """,
    })
    findings = _findings(cli, tmp_path, "--no-cache", "pkg")
    assert [(f["path"], f["line"]) for f in findings] == [("pkg/jobs.py", 6)]
    assert "tenacity 4 attempts (pkg/jobs.py:4) x tenacity 3 attempts (pkg/sub/client.py:4) = up to 12 calls" in (
        findings[0]["message"]
    )


POLICIES_FROM_OTHER_MODULES = {
    "policies.py": """
        import tenacity

        api_retry = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random_exponential(max=5))
    """,
    "client.py": """
        import requests

        from policies import api_retry


        @api_retry
        def send(payload):
            return requests.post("https://api.example.com/orders", json=payload, timeout=5)
    """,
    "jobs.py": """
        import tenacity

        from client import send


        def submit(payload):
            retrying = tenacity.Retrying(stop=tenacity.stop_after_attempt(2), wait=tenacity.wait_random_exponential(max=5))
            return retrying(send, payload)
    """,
}


def test_the_project_pass_leaves_the_summaries_it_reads_as_they_were(tmp_path):
    """A language server runs the pass again over the same summaries after every edit: the
    layers a decorator or a policy of another module adds to a function are the pass's own,
    and a second pass finds what the first found."""
    write_tree(tmp_path, POLICIES_FROM_OTHER_MODULES)
    checker = Checker(Settings(root=str(tmp_path)), list(all_rules()))
    summaries = [checker.check_file(None, str(tmp_path / name)).summary for name in POLICIES_FROM_OTHER_MODULES]
    read = [json.dumps(summary.to_json()) for summary in summaries]

    first = [finding.to_json() for finding in checker.project_findings(summaries)]

    assert [json.dumps(summary.to_json()) for summary in summaries] == read
    # the POST of ``send`` retried by its own decorator's policy, and by the ``Retrying`` that
    # ``jobs.submit`` calls it with, around that policy
    assert sorted((f["code"], f["path"].rsplit("/", 1)[-1], f["line"]) for f in first) == [
        ("RES201", "client.py", 8), ("RES201", "jobs.py", 8), ("RES204", "jobs.py", 8),
    ]
    assert [finding.to_json() for finding in checker.project_findings(summaries)] == first
