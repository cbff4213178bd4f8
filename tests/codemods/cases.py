"""Before/after pairs for every codemod, by the rule code whose finding the ``before`` has.

The meta-test (test_codemod_registry.py) requires at least one pair for every fixable rule;
test_codemod_cases.py runs each pair through ``resilint fix`` on a real file and checks the
result byte for byte, that it is clean of the finding, and that a second run changes nothing.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Tuple


class Case(NamedTuple):
    name: str
    before: str
    after: str
    unsafe: bool = False


# LibCST's AddImportsVisitor leaves a blank line between the imports and code that followed them directly.
IMPORT = "from resilint.runtime import timeout\n"
ALIASED = "from resilint.runtime import timeout as runtime_timeout\n"

CASES: Dict[str, List[Case]] = {
    "RES101": [
        Case(
            "requests-function",
            "import requests\nrequests.get('https://a.example')\n",
            "import requests\n" + IMPORT + "\nrequests.get('https://a.example', timeout=timeout(read=10, connect=3.05))\n",
        ),
        Case(
            "multi-line-call-with-trailing-comma-and-comments",
            "import requests\n\n"
            "def send(body):\n"
            "    return requests.post(\n"
            "        'https://a.example',\n"
            "        # what we send\n"
            "        json=body,  # the body\n"
            "    )\n",
            "import requests\n" + IMPORT + "\n"
            "def send(body):\n"
            "    return requests.post(\n"
            "        'https://a.example',\n"
            "        # what we send\n"
            "        json=body,  # the body\n"
            "        timeout=timeout(read=10, connect=3.05),\n"
            "    )\n",
        ),
        Case(
            "multi-line-call-without-trailing-comma",
            "import requests\n"
            "requests.get('https://a.example',\n"
            "             params={'q': 1})  # search\n",
            "import requests\n" + IMPORT
            + "\nrequests.get('https://a.example',\n"
            "             params={'q': 1}, timeout=timeout(read=10, connect=3.05))  # search\n",
        ),
        Case(
            "comment-before-the-closing-parenthesis",
            "import requests\nrequests.get('https://a.example'  # where\n)\n",
            "import requests\n" + IMPORT
            + "\nrequests.get('https://a.example', timeout=timeout(read=10, connect=3.05)  # where\n)\n",
        ),
        Case(
            "a-parameter-called-timeout-is-not-shadowed",
            "import requests\n\n"
            "def fetch(url, timeout):\n"
            "    with requests.Session() as s:\n"
            "        return s.get(url)\n",
            "import requests\n" + ALIASED + "\n"
            "def fetch(url, timeout):\n"
            "    with requests.Session() as s:\n"
            "        return s.get(url, timeout=runtime_timeout(read=10, connect=3.05))\n",
        ),
        Case(
            "the-runtime-import-is-reused",
            "import requests\nfrom resilint.runtime import timeout\n\n"
            "requests.get('https://a.example', timeout=timeout(read=2))\nrequests.get('https://b.example')\n",
            "import requests\nfrom resilint.runtime import timeout\n\n"
            "requests.get('https://a.example', timeout=timeout(read=2))\n"
            "requests.get('https://b.example', timeout=timeout(read=10, connect=3.05))\n",
        ),
        Case(
            # requests.get takes no positional timeout: *args cannot hold one
            "star-args-of-a-function-without-a-positional-timeout",
            "import requests\n\ndef fetch(*args):\n    return requests.get(*args)\n",
            "import requests\n" + IMPORT + "\ndef fetch(*args):\n    return requests.get(*args, timeout=timeout(read=10, connect=3.05))\n",
        ),
        Case(
            "tabs",
            "import requests\n\nif True:\n\trequests.get(\n\t\t'https://a.example',\n\t)\n",
            "import requests\n" + IMPORT + "\nif True:\n\trequests.get(\n\t\t'https://a.example',\n"
            "\t\ttimeout=timeout(read=10, connect=3.05),\n\t)\n",
        ),
    ],
    "RES102": [
        Case(
            "none",
            "import requests\nrequests.get('https://a.example', timeout=None)\n",
            "import requests\n" + IMPORT + "\nrequests.get('https://a.example', timeout=timeout(read=10, connect=3.05))\n",
        ),
        Case(
            "httpx-gets-what-httpx-wants",
            "import httpx\nclient = httpx.Client(timeout=None)\n",
            "import httpx\n" + IMPORT + "\nclient = httpx.Client(timeout=timeout(read=10, connect=3.05).as_httpx())\n",
        ),
        Case(
            "connect-kept-read-bounded",
            "import requests\nrequests.get('https://a.example', timeout=(2, None))\n",
            "import requests\n" + IMPORT + "\nrequests.get('https://a.example', timeout=timeout(read=10, connect=2))\n",
        ),
    ],
    "RES103": [
        Case(
            "number-is-the-read-ceiling",
            "import requests\nrequests.get('https://a.example', timeout=20)\n",
            "import requests\n" + IMPORT + "\nrequests.get('https://a.example', timeout=timeout(read=20, connect=3.05))\n",
            unsafe=True,
        ),
        Case(
            "small-number-bounds-connect-too",
            "import requests\nrequests.get('https://a.example', timeout=2.5)\n",
            "import requests\n" + IMPORT + "\nrequests.get('https://a.example', timeout=timeout(read=2.5, connect=2.5))\n",
            unsafe=True,
        ),
        Case(
            "pair-keeps-both-values",
            "import requests\ns = requests.Session()\ns.post('https://a.example', timeout=(3.05, 27))\n",
            "import requests\n" + IMPORT
            + "\ns = requests.Session()\ns.post('https://a.example', timeout=timeout(read=27, connect=3.05))\n",
            unsafe=True,
        ),
        Case(
            "httpx",
            "import httpx\nhttpx.get('https://a.example', timeout=10)\n",
            "import httpx\n" + IMPORT + "\nhttpx.get('https://a.example', timeout=timeout(read=10, connect=3.05).as_httpx())\n",
            unsafe=True,
        ),
    ],
    "RES201": [
        Case(
            'hand-written-loop-gets-one-key-above-it',
            'import time\n\nimport requests\n\n\ndef pay(url, body):\n    for attempt in range(3):\n        try:\n            return requests.post(url, json=body, timeout=TIMEOUT)\n        except requests.ConnectionError:\n            time.sleep(0.5 * 2 ** attempt * random.random())\n    return None\n',
            'import time\n\nimport requests\nfrom resilint.runtime import idempotency_key\n\n\ndef pay(url, body):\n    post_key = idempotency_key()\n    for attempt in range(3):\n        try:\n            return requests.post(url, json=body, timeout=TIMEOUT, headers={"Idempotency-Key": post_key})\n        except requests.ConnectionError:\n            time.sleep(0.5 * 2 ** attempt * random.random())\n    return None\n',
            unsafe=True,
        ),
    ],
    "RES202": [
        Case(
            'tenacity-multi-line-decorator-with-comment',
            'import requests\nfrom tenacity import retry, stop_after_attempt, wait_exponential\n\n\n@retry(\n    stop=stop_after_attempt(3),\n    wait=wait_exponential(multiplier=1, max=10),  # doubling\n)\ndef fetch(url):\n    return requests.get(url, timeout=TIMEOUT)\n',
            'import requests\nfrom tenacity import retry, stop_after_attempt, wait_random_exponential\n\n\n@retry(\n    stop=stop_after_attempt(3),\n    wait=wait_random_exponential(multiplier=1, max=10),  # doubling\n)\ndef fetch(url):\n    return requests.get(url, timeout=TIMEOUT)\n',
        ),
        Case(
            'hand-written-loop-exponential-sleep',
            'import time\n\nimport requests\n\n\ndef fetch(url):\n    for attempt in range(3):\n        try:\n            return requests.get(url, timeout=TIMEOUT)\n        except requests.ConnectionError:\n            time.sleep(2 ** attempt)\n    return None\n',
            'import time\n\nimport requests\nfrom resilint.runtime import full_jitter\n\n\ndef fetch(url):\n    for attempt in range(3):\n        try:\n            return requests.get(url, timeout=TIMEOUT)\n        except requests.ConnectionError:\n            time.sleep(full_jitter(2 ** attempt))\n    return None\n',
        ),
    ],
    "RES203": [
        Case(
            'backoff-without-max-tries',
            'import backoff\nimport requests\n\n\n@backoff.on_exception(backoff.expo, requests.ConnectionError)\ndef fetch(url):\n    return requests.get(url, timeout=TIMEOUT)\n',
            'import backoff\nimport requests\n\n\n@backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=5)\ndef fetch(url):\n    return requests.get(url, timeout=TIMEOUT)\n',
        ),
    ],
}

# Recognised by a rule, never rewritten by its codemod: the file stays as it is.
UNCHANGED: List[Tuple[str, str]] = [
    ("kwargs-may-hold-the-timeout", "import requests\n\ndef fetch(url, **kwargs):\n    return requests.get(url, **kwargs)\n"),
    # Session.request takes the timeout as its 9th positional argument: *args may hold it
    ("args-may-hold-the-timeout", "import requests\n\ndef fetch(*args):\n    return requests.Session().request(*args)\n"),
    ("aiohttp", "import aiohttp\n\nasync def f(u):\n    async with aiohttp.ClientSession(timeout=None) as s:\n        return await s.get(u)\n"),
    ("socket", "import socket\nsock = socket.create_connection(('db', 5432))\n"),
    ("smtplib", "import smtplib\nsmtplib.SMTP('mail.example', 25)\n"),
    ("psycopg2-dsn", "import psycopg2\nconn = psycopg2.connect('host=db dbname=app')\n"),
    ("redis", "import redis\ncache = redis.Redis(host='cache')\n"),
    ("none-from-a-name", "import requests\nT = None\nrequests.get('https://a.example', timeout=T)\n"),
    ("expression", "import requests\nrequests.get('https://a.example', timeout=5 * 2)\n"),
    ("generic-wait", "import asyncio\n\nasync def f(job):\n    return await asyncio.wait_for(job, None)\n"),
]
