"""RES001 unused-suppression."""

from __future__ import annotations

from typing import Iterator, Mapping, Sequence, Type

from resilint.lint.rule import Invalid, Rule, RuleContext
from resilint.lint.suppressions import Suppression


class UnusedSuppressionRule(Rule):
    """A suppression comment names a resilint code that it does not suppress.

    ## What it does
    Checks `# noqa: RES…` and `# resilint: ignore[RES…]` comments, and the file-level
    `# resilint: noqa: RES…`, and reports each resilint code in them that is unknown, that
    belongs to a rule that is not enabled, that suppressed nothing on that line (in that file,
    for a file-level comment), or that cannot be suppressed (RES000). A bare
    `# resilint: ignore` or `# resilint: noqa` that suppressed nothing is reported too.
    Codes of other tools in a shared `# noqa` comment (`E501`, `S113`) are left alone, and so
    are bare `# noqa` comments, which may be meant for another linter.

    ## Why is this bad?
    A stale suppression hides the next real finding on that line: once the call that needed it
    is fixed or moved, the comment stays and silently swallows whatever lands there later. A
    misspelt code suppresses nothing and gives a false sense that a reviewer looked.

    ## Example
    ```python
    import requests

    from myapp.settings import HTTP_TIMEOUT

    requests.get(url, timeout=HTTP_TIMEOUT)  # noqa: RES101
    ```

    ## Use instead
    ```python
    import requests

    from myapp.settings import HTTP_TIMEOUT

    requests.get(url, timeout=HTTP_TIMEOUT)
    ```

    ## Options
    Opt-in: enable it with `--extend-select RES001` or `extend-select = ["RES001"]`.
    """

    code = "RES001"
    name = "unused-suppression"
    precision = "very-high"  # the comment and the findings are both known exactly
    message = "unused suppression"
    default = False
    engine = True
    VALID = [
        "x = 1  # noqa: E501\n",
        "x = 1  # noqa\n",
    ]
    INVALID = [
        Invalid("x = 1  # noqa: RES101\n", message="RES101"),
        Invalid("x = 1  # resilint: ignore[RES999]\n", message="unknown rule code RES999"),
        Invalid("x = 1  # resilint: ignore\n", message="suppresses nothing"),
        Invalid("# resilint: noqa\nx = 1\n", line=1, message="`# resilint: noqa` suppresses nothing in this file"),
        Invalid("x = 1  # noqa: RES000\n", message="RES000 (analysis-error) cannot be suppressed"),
    ]

    def check(self, ctx: RuleContext) -> None:
        """Reported by the checker, after suppressions have been applied."""

    @staticmethod
    def problems(
        suppression: Suppression, registry: Mapping[str, Type[Rule]], enabled: Sequence[str]
    ) -> Iterator[str]:
        where = "in this file" if suppression.whole_file else "on this line"
        if suppression.codes is None:
            if suppression.ours and not suppression.used:
                comment = "# resilint: noqa" if suppression.whole_file else "# resilint: ignore"
                yield f"`{comment}` suppresses nothing {where}"
            return
        for code in sorted(suppression.codes):
            if not code.startswith("RES") or code in suppression.used:
                continue
            if code not in registry:
                yield f"unknown rule code {code} in suppression"
            elif getattr(registry[code], "always_reported", False):
                yield f"{code} ({registry[code].name}) cannot be suppressed: a file that cannot be analysed is always reported"
            elif code not in enabled:
                yield f"suppression of {code} ({registry[code].name}), which is not enabled"
            else:
                yield f"unused suppression of {code} ({registry[code].name}): nothing to suppress {where}"
