"""The project's value flow (``resilint.lint.value_flow``) over summaries of real files."""

from __future__ import annotations

from collections import Counter

from resilint.lint import value_flow
from resilint.lint.checker import Checker
from resilint.lint.config import Settings
from resilint.lint.project import ProjectGraph
from resilint.lint.registry import all_rules
from tests.conftest import write_tree

MUTUAL_RECURSION = {
    "app/__init__.py": "",
    "app/walk.py": """
        import requests

        def ping(session, hops):
            if hops:
                return pong(session, hops - 1)
            return session.get("https://example.com/health", timeout=5)

        def pong(session, hops):
            return ping(session, hops)

        def main():
            return ping(requests.Session(), 3)
    """,
}


def test_the_values_of_a_cycle_are_computed_once_for_all_questions(tmp_path, monkeypatch):
    """``ping``'s session is what ``main`` and ``pong`` pass, and ``pong``'s is what ``ping``
    passes: each is asked while the other is being computed. Once the first question has
    settled the cycle, asking again (as every rule does, for every call) reads what was found
    instead of walking the cycle anew."""
    write_tree(tmp_path, MUTUAL_RECURSION)
    checker = Checker(Settings(root=str(tmp_path)), list(all_rules()))
    summaries = [checker.check_file(None, str(tmp_path / name)).summary for name in MUTUAL_RECURSION]
    graph = ProjectGraph(summaries)
    computed: Counter = Counter()
    compute = value_flow.ValueFlow._of
    monkeypatch.setattr(value_flow.ValueFlow, "_of", lambda self, name, near: computed.update([name]) or compute(self, name, near))
    near = str(tmp_path / "app/walk.py")

    for _ in range(20):
        for function in ("ping", "pong"):
            held = graph.values.of(f"app.walk.{function}.(session)", near)
            assert [(h.kind, h.name) for h in held] == [("instance", "requests.Session")]

    # the first question, then one more round that finds nothing new
    assert computed["app.walk.ping.(session)"] <= 3
    assert computed["app.walk.pong.(session)"] <= 3


# Helpers that hand their argument back on one path, called on each other's results with
# methods chained (frappe's ``get_datetime``/``getdate``/``cstr``): each round of the cycle
# made every chain of those methods a value of its own, until the run held gigabytes.
IDENTITY_HELPERS = {
    "pkg/__init__.py": "",
    "pkg/dates.py": """
        import datetime

        def get_datetime(value=None):
            if value is None:
                return datetime.datetime.now()
            if isinstance(value, datetime.datetime):
                return value
            return datetime.datetime.fromisoformat(value)

        def getdate(value=None):
            if isinstance(value, datetime.date):
                return value
            return get_datetime(value).date()

        def cstr(value):
            if isinstance(value, str):
                return value
            return str(value)
    """,
    **{
        f"pkg/m{k}.py": f"""
        from pkg.dates import cstr, get_datetime, getdate

        def f{k}(doc):
            first = get_datetime(getdate(doc.a).{a}()).{b}()
            second = getdate(cstr(get_datetime(first).{c}()).{a}())
            return cstr(get_datetime(second).{b}().{c}())
    """
        for k, (a, b, c) in enumerate([
            ("replace", "strftime", "astimezone"), ("strip", "lower", "upper"), ("split", "encode", "title"),
            ("zfill", "isoformat", "date"), ("astimezone", "replace", "strip"), ("lower", "split", "strftime"),
        ])
    },
}


def test_what_a_name_may_hold_is_bounded(tmp_path):
    """The join of what ``get_datetime``'s parameter may hold stops at ``_MAX_VALUES`` (then it
    is unknown), and no library object's name grows past ``_MAX_OBJECT_PARTS`` parts."""
    write_tree(tmp_path, IDENTITY_HELPERS)
    checker = Checker(Settings(root=str(tmp_path)), list(all_rules()))
    summaries = [checker.check_file(None, str(tmp_path / name)).summary for name in IDENTITY_HELPERS]
    graph = ProjectGraph(summaries)
    near = str(tmp_path / "pkg/dates.py")
    for name in ("pkg.dates.get_datetime.(value)", "pkg.dates.getdate.(value)", "pkg.dates.cstr.(value)"):
        held = graph.values.of(name, near)
        assert len(held) <= value_flow._MAX_VALUES
        assert all(h.name.count(".") <= value_flow._MAX_OBJECT_PARTS for h in held)


def test_a_value_cut_short_by_depth_is_computed_again_from_the_top(tmp_path, monkeypatch):
    """A question nested deeper than the flow allows is cut short, with nothing; the values
    computed from that answer are provisional and found again once the outermost question is
    answered. Kept as final, they stayed empty for every later question (in a run over pretix
    and lemur together, the session lemur's digicert plugin hands to a retried helper)."""
    monkeypatch.setattr(value_flow, "_MAX_DEPTH", 3)
    hops = 8
    chain = "\n".join(f"        def hop{i}(session):\n            return hop{i + 1}(session)\n" for i in range(hops))
    tree = {"app/__init__.py": "", "app/chain.py": f"""
        import requests

{chain}
        def hop{hops}(session):
            return session.get("https://example.com/health", timeout=5)

        def main():
            return hop0(requests.Session())
    """}
    write_tree(tmp_path, tree)
    checker = Checker(Settings(root=str(tmp_path)), list(all_rules()))
    graph = ProjectGraph([checker.check_file(None, str(tmp_path / name)).summary for name in tree])
    near = str(tmp_path / "app/chain.py")

    for depth in (hops, 2, hops):  # the deepest first: its callers' values nest beyond the limit
        held = graph.values.of(f"app.chain.hop{depth}.(session)", near)
        assert [(h.kind, h.name) for h in held] == [("instance", "requests.Session")]


def test_a_mapping_of_keywords_that_holds_its_own_name_is_read_once():
    """``data = dict(apikey=KEY, hash=data)`` on one branch and ``url=data`` on the other: each
    mapping's entry may be the other mapping; it is kept as a dict, not read again and again
    (cortex-analyzers' WildFire analyzer ran out of recursion)."""
    from resilint.lint.checker import check_source

    source = (
        "import requests\n"
        "KEY = 'k'\n"
        "def verdict(kind, data):\n"
        "    if kind == 'hash':\n"
        "        data = dict(apikey=KEY, hash=data)\n"
        "    else:\n"
        "        data = dict(apikey=KEY, url=data)\n"
        "    return requests.post('https://wildfire.example.com/verdict', data=data)\n"
    )
    assert [(f.code, f.line) for f in check_source(source, ["RES000", "RES101"])] == [("RES101", 8)]
