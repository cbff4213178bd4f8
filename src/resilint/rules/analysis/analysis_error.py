"""RES000 analysis-error."""

from __future__ import annotations

from resilint.lint.rule import Invalid, Rule, RuleContext


class AnalysisErrorRule(Rule):
    """A file could not be read, decoded or parsed, so none of its calls were checked.

    ## What it does
    Reports, once per file, why resilint could not analyse it: the file cannot be read
    (permissions, a broken symlink), it is larger than `max-file-size` (1 MiB by default), its
    bytes are not valid in its declared encoding, it contains a NUL byte, it is not valid Python
    for the interpreter running resilint (the message names its version), LibCST cannot read
    it, or it is nested too deeply to analyse: more than 1,000 levels, which also counts chains
    that read as flat, such as an `if`/`elif` chain of a thousand branches or an `or` or `+`
    of a thousand terms (each `elif`, `or` and `+` nests one level in LibCST's tree). LibCST,
    which resilint parses with, is slow on such chains and crashes on deeper ones. Should its
    parser crash or run out of memory anyway, the file is this finding ("the parser crashed on
    this file") and every other file is still checked.

    ## Why is this bad?
    A file that is silently skipped is a file whose missing timeouts and unsafe retries nobody
    sees. resilint never drops a file quietly: the run goes on with the other files and this
    finding says which file was not checked and why. For the same reason RES000 cannot be
    turned off: naming it in `ignore` or `per-file-ignores` is an error. Exclude a file that
    should not be checked (`extend-exclude`).

    ## Example
    ```python
    def charge(:
        ...
    ```

    ## Use instead
    Fix the syntax (or encoding) error; the file is then checked like any other.
    ```python
    def charge(order):
        ...
    ```
    """

    code = "RES000"
    name = "analysis-error"
    precision = "very-high"  # a file CPython or LibCST refused, or could not read: a fact
    message = "this file could not be analysed"
    severity = "error"
    engine = True
    always_reported = True  # a file that cannot be analysed must be seen
    VALID = ["x = 1\n"]
    INVALID = [
        Invalid("def charge(:\n    pass\n", line=1, message="syntax error"),
        Invalid("x = " + "(" * 300 + "1" + ")" * 300 + "\n", message="nested"),
    ]

    def check(self, ctx: RuleContext) -> None:
        """Reported by the checker, which is where reading and parsing fail."""
