"""docs/output-formats.md shows real output: every example block is what a run of resilint
over the document's sample gives now."""

from __future__ import annotations

from tests.docs.output_examples import DOCUMENT, examples, marked, with_examples


def test_the_examples_are_those_of_a_real_run():
    document = DOCUMENT.read_text(encoding="utf-8")
    found = examples()
    assert sorted(marked(document)) == sorted(found), "every example is shown, once"
    assert with_examples(document, found) == document, (
        "docs/output-formats.md no longer shows what resilint prints; "
        "regenerate its examples with `python -m tests.docs.output_examples` and read the diff"
    )


def test_the_sample_has_a_safe_fix_an_unsafe_fix_and_an_error():
    found = examples()
    assert "(safe fix)" in found["text"] and "(unsafe fix)" in found["text"]
    assert "missing_dir" in found["concise"]
    assert "= note: not fixed:" in found["fix"]
