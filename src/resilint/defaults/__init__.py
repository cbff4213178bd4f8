"""Defaults that the runtime and the linter share, in one place that imports nothing.

The runtime's ``timeout()`` falls back to these seconds, and the codemods write them where no
timeout was given (the ``fix-timeout`` setting's defaults), so that fixed code and the runtime
agree. The runtime-only distribution (packaging/resilint-runtime) ships this package beside
``resilint.runtime``; the engine reads it without importing the runtime.
"""

from __future__ import annotations

DEFAULT_CONNECT = 3.05  # just above a multiple of the 3 s TCP SYN retransmission interval
DEFAULT_READ = 10.0
