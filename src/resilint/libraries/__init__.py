"""What resilint knows about third-party libraries, in one place between the engine and the rules.

A fact about a library goes here, in the module named after what it describes:

* ``clients``: the client catalog — which calls take a timeout, in which parameter, and what
  the library does without one (requests, httpx, aiohttp, urllib3, the stdlib, redis,
  psycopg, botocore);
* ``sessions``: sessions that supply a timeout themselves (mounted adapters, subclasses);
* ``timeout_values``: what a timeout expression means (numbers, ``None``, split-timeout
  objects such as ``httpx.Timeout`` or botocore's ``Config``);
* ``http_requests``: which calls send which HTTP method, where headers go, idempotency keys;
* ``retry_scopes``: retry policies and the code they repeat (one module per library).
* ``browser_automation``: browsers driven on this machine (Selenium, Playwright), whose calls
  and errors are local work, not calls out.

Rules and codemods ask this layer; it asks the engine (``resilint.lint``) for the semantic
model and node helpers, and never imports rules, codemods or the CLI (a test enforces it).
"""
