"""HTTP client adapters. Import the submodule you need; each imports its client lazily:

* :mod:`resilint.runtime.adapters.requests` — ``ResilientSession``, ``ResilientAdapter``
* :mod:`resilint.runtime.adapters.httpx` — ``ResilientTransport``, ``AsyncResilientTransport``
"""

from ._engine import HttpPolicy

__all__ = ["HttpPolicy"]
