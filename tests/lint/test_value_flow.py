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
