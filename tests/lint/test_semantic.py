"""Name resolution in the single-pass semantic model."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from resilint.lint.semantic import SemanticModel


def project_call_names(source: str, module_name: str = "app"):
    """Every name each call may call, those only the project pass can resolve included."""
    model = SemanticModel(cst.parse_module(textwrap.dedent(source)), module_name=module_name)
    return {cst.Module([]).code_for_node(site.node.func): model.call_names(site) for site in model.calls}


def call_names(source: str, module_name: str = "app"):
    model = SemanticModel(cst.parse_module(textwrap.dedent(source)), module_name=module_name)
    return {cst.Module([]).code_for_node(call.node.func): name for call, name in model.iter_calls()}


@pytest.mark.parametrize(
    ("source", "callee", "expected"),
    [
        ("import requests as rq\nrq.get(u)\n", "rq.get", "requests.get"),
        ("from requests import post as p\np(u)\n", "p", "requests.post"),
        ("import requests\nrequests.api.get(u)\n", "requests.api.get", "requests.get"),
        ("import urllib.request\nurllib.request.urlopen(u)\n", "urllib.request.urlopen", "urllib.request.urlopen"),
        ("import urllib.request as ur\nur.urlopen(u)\n", "ur.urlopen", "urllib.request.urlopen"),
        ("import requests\ns = requests.session()\ns.get(u)\n", "s.get", "requests.Session.get"),
        ("from requests.sessions import Session\nSession().get(u)\n", "Session().get", "requests.Session.get"),
        ("import httpx\nwith httpx.Client() as c:\n    c.get(u)\n", "c.get", "httpx.Client.get"),
        ("x = {}\nx.get(u)\n", "x.get", None),
        ("def f(requests):\n    requests.get(u)\n", "requests.get", None),
        ("float('inf')\n", "float", "builtins.float"),
        # Python reads identifiers in their NFKC form: full-width letters spell the same name.
        ("import requests\nｒｅｑｕｅｓｔｓ.get(u)\n", "ｒｅｑｕｅｓｔｓ.get", "requests.get"),
        ("import ｒｅｑｕｅｓｔｓ\nrequests.ｇｅｔ(u)\n", "requests.ｇｅｔ", "requests.get"),
        ("from requests import Ｓｅｓｓｉｏｎ as ｓ\ns().get(u)\n", "s().get", "requests.Session.get"),
        ("import requests\nｓ = requests.Session()\ns.post(u)\n", "s.post", "requests.Session.post"),
        ("import requests\ndef ｆ(requests):\n    ｒｅｑｕｅｓｔｓ.get(u)\n", "ｒｅｑｕｅｓｔｓ.get", None),
        ("ｆｌｏａｔ('inf')\n", "ｆｌｏａｔ", "builtins.float"),
        ("import requests\nclass C:\n    def __init__(ｓｅｌｆ):\n        self.ｈｔｔｐ = requests.Session()\n"
         "    def run(self):\n        self.http.get(u)\n", "self.http.get", "requests.Session.get"),
        # modules bound by a call rather than an import statement
        ("from app.util import lazy_import\nboto3 = lazy_import('boto3')\nboto3.client('s3')\n",
         "boto3.client", "boto3.client"),
        ("import pytest\npg = pytest.importorskip('psycopg2')\npg.connect(d)\n", "pg.connect", "psycopg2.connect"),
        ("import importlib\nimportlib.import_module('redis').Redis()\n",
         "importlib.import_module('redis').Redis", "redis.Redis"),
        ("r = __import__('requests.api')\nr.get(u)\n", "r.get", "requests.get"),
        ("def load(name): ...\nboto3 = load('boto3')\nboto3.client('s3')\n", "boto3.client", None),
    ],
)
def test_resolution(source, callee, expected):
    assert call_names(source)[callee] == expected


def test_use_before_definition_resolves_instance_attributes_and_globals():
    names = call_names(
        """
        import requests

        def fetch():
            return SESSION.get(u)

        class Client:
            def run(self):
                return self.http.post(u)
            def __init__(self):
                self.http = requests.Session()

        SESSION = requests.Session()
        """
    )
    assert names["SESSION.get"] == "requests.Session.get"
    assert names["self.http.post"] == "requests.Session.post"


def test_assignment_in_a_function_shadows_the_import_there_only():
    model = SemanticModel(cst.parse_module(textwrap.dedent("""
        import requests
        def f():
            requests.get(u)
        def g():
            requests = FakeClient()
            requests.get(u)
    """)))
    resolved = [name for call, name in model.iter_calls() if call.scope.name in ("f", "g")]
    assert resolved == ["requests.get", None, None]  # f's call; g's FakeClient() and its .get


def test_properties_subclasses_and_factories():
    names = call_names(
        """
        import functools
        import requests

        class Base(requests.Session):
            pass

        class Api:
            @property
            def client(self):
                return make()
            @functools.cached_property
            def cached(self):
                return Base()

        def make():
            return requests.Session()

        Api().client.get(u)
        Api().cached.get(u)
        Base().put(u)
        """
    )
    assert names["Api().client.get"] == "requests.Session.get"
    assert names["Api().cached.get"] == "requests.Session.get"
    assert names["Base().put"] == "requests.Session.put"


def test_relative_import_uses_module_name():
    names = call_names("from .http import fetch\nfetch(u)\n", module_name="shop.orders")
    assert names["fetch"] == "shop.http.fetch"


def test_cycles_do_not_recurse_forever():
    names = call_names("a = b\nb = a\na.get(u)\nx = x.y\nx.z()\n")
    assert names["a.get"] is None
    assert names["x.z"] is None


def test_call_stack_records_enclosing_statements():
    model = SemanticModel(cst.parse_module("for i in r:\n    try:\n        f()\n    except E:\n        g()\n"))
    kinds = {cst.Module([]).code_for_node(c.node.func): [type(n).__name__ for n in c.stack] for c in model.calls}
    assert kinds["f"] == ["For", "Try"]
    assert kinds["g"] == ["For", "Try", "ExceptHandler"]


def test_a_full_width_call_is_reported_like_the_ascii_one():
    from resilint.lint.checker import check_source

    findings = check_source("import requests\nｒｅｑｕｅｓｔｓ.get(url)\n", ["RES101"])
    assert [(f.code, f.line) for f in findings] == [("RES101", 2)]


def test_a_released_model_is_freed_by_reference_counting_with_its_scopes():
    """``release`` breaks the model's cycles, so that a checked file's model and trees go as soon
    as the last reference does, without waiting for the cyclic garbage collector."""
    import gc
    import weakref

    from resilint.libraries.retry_scopes import retry_scopes
    from resilint.libraries.summaries import summarise

    source = textwrap.dedent(
        """
        import requests, responses, tenacity

        @responses.activate
        def test_send():
            Client().send("https://x.example")

        class Client:
            def __init__(self):
                self.http = requests.Session()

            @tenacity.retry(stop=tenacity.stop_after_attempt(3))
            def send(self, url, **kwargs):
                kwargs.setdefault("timeout", 5)
                return [self.http.post(u, **kwargs) for u in (url,)]

        handler = lambda event: Client().send(event)
        """
    )
    model = SemanticModel(cst.parse_module(source), module_name="app", text=source)
    retry_scopes(model)
    summarise(model, lambda node: None)  # derives facts the model keeps, some of which keep the model
    assert any(getattr(fact, "model", None) is model for fact in model._derived.values())
    alive = [weakref.ref(model), *(weakref.ref(scope) for scope in model.scope_of.values())]
    assert len(alive) > 5  # module, class, three functions, comprehension, lambda
    enabled = gc.isenabled()
    gc.disable()
    try:
        model.release()
        del model
        assert [ref() for ref in alive] == [None] * len(alive)
    finally:
        if enabled:
            gc.enable()


def test_relative_imports_resolve_as_importlib_does(tmp_path, monkeypatch):
    """Each ``from .x import f`` in a real package tree names the function importlib imports:
    one dot in a package's ``__init__`` is that package, in a plain module the one around it."""
    import importlib
    import sys

    from resilint.lint.checker import module_name

    tree = {
        "top/__init__.py": "from .mid import deep_fn\nfrom .leaf import leaf_fn\n",
        "top/leaf.py": "def leaf_fn(): pass\n",
        "top/mid/__init__.py": (
            "from .client import Api\nfrom . import client\nfrom ..leaf import leaf_fn\n"
            "from .deeper import deep_fn\n"
        ),
        "top/mid/client.py": "from .deeper.impl import impl_fn\nfrom ..leaf import leaf_fn\nclass Api: pass\n",
        "top/mid/deeper/__init__.py": "from .impl import impl_fn as deep_fn\nfrom ...leaf import leaf_fn\n",
        "top/mid/deeper/impl.py": "from ... import leaf\ndef impl_fn(): pass\n",
    }
    for name, text in tree.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    checked = 0
    for name, text in tree.items():
        path = str(tmp_path / name)
        dotted = module_name(path, [str(tmp_path)])
        imported = importlib.import_module(dotted)
        model = SemanticModel(cst.parse_module(text), module_name=dotted, path=path)
        for local, bindings in model.module_scope.bindings.items():
            if bindings[0].imported is None:
                continue
            source, _, attribute = bindings[0].imported.rpartition(".")
            assert getattr(importlib.import_module(source), attribute) is getattr(imported, local), (name, local)
            checked += 1
    for dotted in [m for m in sys.modules if m == "top" or m.startswith("top.")]:
        monkeypatch.delitem(sys.modules, dotted)
    assert checked == 11


def test_a_return_annotation_names_the_object_when_the_returns_cannot_be_read():
    names = call_names(
        """
        from __future__ import annotations
        import httpx

        class Pool:
            def client(self) -> httpx.AsyncClient:
                return self._clients[0]
            def optional(self) -> "httpx.Client | None":
                return self._maybe
            def made(self) -> httpx.Client:
                return httpx.AsyncClient()
            async def run(self):
                await self.client().request("POST", u)
                self.optional().get(u)
                self.made().get(u)
        """
    )
    assert names['self.client().request'] == "httpx.AsyncClient.request"
    assert names["self.optional().get"] == "httpx.Client.get"
    assert names["self.made().get"] == "httpx.AsyncClient.get"  # what it returns comes first


def test_keywords_read_from_kwargs_are_the_callers_keywords():
    names = project_call_names(
        """
        def upload(name, **kwargs):
            kwargs.pop("client").put(name)
            kwargs["http"].post(name)
            kwargs.get("session", None).get(name)
            kwargs = {}
            kwargs.get("other").get(name)
        """
    )
    assert names['kwargs.pop("client").put'] == ("app.upload.(client).put",)
    assert names['kwargs["http"].post'] == ("app.upload.(http).post",)
    assert names['kwargs.get("session", None).get'] == ("app.upload.(session).get",)
    assert names['kwargs.get("other").get'] == ()


def _held_at_calls(source: str):
    """What the receiver of each ``NAME.send()`` call may hold, in the calls' source order."""
    model = SemanticModel(cst.parse_module(textwrap.dedent(source)), module_name="app")
    found = []
    for site in sorted(model.calls, key=lambda site: site.order):
        func = site.node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "send":
            values = model.resolve_all(func.value, site.scope, site.order)
            found.append(sorted(model.type_name(v) or model.name_of(v) or "?" for v in values))
    return found


def test_a_name_assigned_in_each_arm_of_a_chain_holds_what_every_arm_assigns():
    held = _held_at_calls("""
        import httpx, requests
        from app import state
        def pick(a, b):
            client = None
            if a:
                client = requests.Session()
            elif b:
                client = httpx.Client()
            else:
                client = state.shared
                client.send()
            client.send()
        """)
    # inside the last arm: only what that arm assigned (the other arms never ran)
    assert held[0] == ["app.state.shared"]
    # after the chain: one value per arm
    assert held[1] == sorted(["requests.Session", "httpx.Client", "app.state.shared"])


def test_an_assignment_in_another_arm_does_not_reach_a_read_in_this_one():
    held = _held_at_calls("""
        import httpx, requests
        def pick(a):
            client = requests.Session()
            if a:
                client = httpx.Client()
            else:
                client.send()
        """)
    # the ``if`` arm never runs before the ``else`` arm: what was there before the chain
    assert held == [["requests.Session"]]
