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
    target: str = "native"  # the fix target (``--fix-target``)


# The import joins the imports; the seconds are named once per file, after them (one blank line
# apart from what follows); a call grown past 88 columns is wrapped as black wraps it.
IMPORT = "from resilint.runtime import timeout\n"
ALIASED = "from resilint.runtime import timeout as runtime_timeout\n"
NAMED = "\nHTTP_READ_TIMEOUT = 10\nHTTP_CONNECT_TIMEOUT = 3.05\n"
RUNTIME = "timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)"

CASES: Dict[str, List[Case]] = {
    "RES101": [
        Case(
            "requests-function",
            "import requests\nrequests.get('https://a.example')\n",
            "import requests\n" + IMPORT + NAMED
            + "\nrequests.get(\n    'https://a.example',\n    timeout=" + RUNTIME + ",\n)\n",
            target="runtime",
        ),
        Case(
            "arguments-hugged-on-one-line-when-they-fit",
            "import requests\n\ndef f(u):\n    return requests.get(u)\n",
            "import requests\n" + IMPORT + NAMED
            + "\ndef f(u):\n    return requests.get(\n        u, timeout=" + RUNTIME + "\n    )\n",
            target="runtime",
        ),
        Case(
            "the-call-not-its-trailers-is-split",
            "import requests\nr = requests.get(url).json()\n",
            "import requests\n" + IMPORT + NAMED
            + "\nr = requests.get(\n    url, timeout=" + RUNTIME + "\n).json()\n",
            target="runtime",
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
            "import requests\n" + IMPORT + NAMED + "\n"
            "def send(body):\n"
            "    return requests.post(\n"
            "        'https://a.example',\n"
            "        # what we send\n"
            "        json=body,  # the body\n"
            "        timeout=" + RUNTIME + ",\n"
            "    )\n",
            target="runtime",
        ),
        Case(
            # not black's layout to begin with: the argument is added, nothing is wrapped
            "multi-line-call-without-trailing-comma",
            "import requests\n"
            "requests.get('https://a.example',\n"
            "             params={'q': 1})  # search\n",
            "import requests\n" + IMPORT + NAMED
            + "\nrequests.get('https://a.example',\n"
            "             params={'q': 1},\n"
            "             timeout=" + RUNTIME + ")  # search\n",
            target="runtime",
        ),
        Case(
            "comment-before-the-closing-parenthesis",
            "import requests\nrequests.get('https://a.example'  # where\n)\n",
            "import requests\n" + IMPORT + NAMED
            + "\nrequests.get('https://a.example', timeout=" + RUNTIME + "  # where\n)\n",
            target="runtime",
        ),
        Case(
            "a-parameter-called-timeout-is-not-shadowed",
            "import requests\n\n"
            "def fetch(url, timeout):\n"
            "    with requests.Session() as s:\n"
            "        return s.get(url)\n",
            "import requests\n" + ALIASED + NAMED + "\n"
            "def fetch(url, timeout):\n"
            "    with requests.Session() as s:\n"
            "        return s.get(\n"
            "            url,\n"
            "            timeout=runtime_timeout(\n"
            "                read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT\n"
            "            ),\n"
            "        )\n",
            target="runtime",
        ),
        Case(
            "the-runtime-import-is-reused",
            "import requests\nfrom resilint.runtime import timeout\n\n"
            "requests.get('https://a.example', timeout=timeout(read=2))\nrequests.get('https://b.example')\n",
            "import requests\nfrom resilint.runtime import timeout\n" + NAMED + "\n"
            "requests.get('https://a.example', timeout=timeout(read=2))\n"
            "requests.get(\n    'https://b.example',\n    timeout=" + RUNTIME + ",\n)\n",
            target="runtime",
        ),
        Case(
            # requests.get takes no positional timeout: *args cannot hold one. Left long: black
            # adds a comma after *args only for the Python versions it infers from the file.
            "star-args-of-a-function-without-a-positional-timeout",
            "import requests\n\ndef fetch(*args):\n    return requests.get(*args)\n",
            "import requests\n" + IMPORT + NAMED + "\ndef fetch(*args):\n    return requests.get(*args, timeout=" + RUNTIME + ")\n",
            target="runtime",
        ),
        Case(
            "tabs",
            "import requests\n\nif True:\n\trequests.get(\n\t\t'https://a.example',\n\t)\n",
            "import requests\n" + IMPORT + NAMED + "\nif True:\n\trequests.get(\n\t\t'https://a.example',\n"
            "\t\ttimeout=" + RUNTIME + ",\n\t)\n",
            target="runtime",
        ),
    ],
    "RES102": [
        Case(
            "none",
            "import requests\nrequests.get('https://a.example', timeout=None)\n",
            "import requests\n" + IMPORT + NAMED
            + "\nrequests.get(\n    'https://a.example',\n    timeout=" + RUNTIME + ",\n)\n",
            target="runtime",
        ),
        Case(
            "httpx-gets-what-httpx-wants",
            "import httpx\nclient = httpx.Client(timeout=None)\n",
            "import httpx\n" + IMPORT + NAMED + "\nclient = httpx.Client(\n    timeout=" + RUNTIME + ".as_httpx()\n)\n",
            target="runtime",
        ),
        Case(
            "connect-kept-read-bounded",
            "import requests\nrequests.get('https://a.example', timeout=(2, None))\n",
            "import requests\n" + IMPORT + "\nHTTP_READ_TIMEOUT = 10\nHTTP_CONNECT_TIMEOUT = 2\n"
            + "\nrequests.get(\n    'https://a.example',\n    timeout=" + RUNTIME + ",\n)\n",
            target="runtime",
        ),
        Case(
            "a-bounded-timeout-parameter-is-passed-on",
            "import requests\n\ndef get(url, timeout=5):\n    return requests.get(url, timeout=None)\n",
            "import requests\n\ndef get(url, timeout=5):\n    return requests.get(url, timeout=timeout)\n",
            target="runtime",
        ),
    ],
    "RES103": [
        Case(
            "number-is-the-read-ceiling",
            "import requests\nrequests.get('https://a.example', timeout=20)\n",
            "import requests\n" + IMPORT + "\nHTTP_READ_TIMEOUT = 20\nHTTP_CONNECT_TIMEOUT = 3.05\n"
            + "\nrequests.get(\n    'https://a.example',\n    timeout=" + RUNTIME + ",\n)\n",
            unsafe=True,
            target="runtime",
        ),
        Case(
            "small-number-bounds-connect-too",
            "import requests\nrequests.get('https://a.example', timeout=2.5)\n",
            "import requests\n" + IMPORT + "\nHTTP_READ_TIMEOUT = 2.5\nHTTP_CONNECT_TIMEOUT = 2.5\n"
            + "\nrequests.get(\n    'https://a.example',\n    timeout=" + RUNTIME + ",\n)\n",
            unsafe=True,
            target="runtime",
        ),
        Case(
            "pair-keeps-both-values",
            "import requests\ns = requests.Session()\ns.post('https://a.example', timeout=(3.05, 27))\n",
            "import requests\n" + IMPORT + "\nHTTP_READ_TIMEOUT = 27\nHTTP_CONNECT_TIMEOUT = 3.05\n"
            + "\ns = requests.Session()\ns.post(\n    'https://a.example',\n    timeout=" + RUNTIME + ",\n)\n",
            unsafe=True,
            target="runtime",
        ),
        Case(
            "httpx",
            "import httpx\nhttpx.get('https://a.example', timeout=10)\n",
            "import httpx\n" + IMPORT + NAMED
            + "\nhttpx.get(\n    'https://a.example',\n    timeout=" + RUNTIME + ".as_httpx(),\n)\n",
            unsafe=True,
            target="runtime",
        ),
        Case(
            "one-constant-per-value-and-file",
            "import requests\n\n\ndef a(u):\n    return requests.get(u, timeout=5)\n\n\n"
            "def b(u):\n    requests.get(u, timeout=5)\n    return requests.post(u, timeout=(1, 2))\n",
            "import requests\n" + IMPORT
            + "\nHTTP_READ_TIMEOUT = 5\nHTTP_CONNECT_TIMEOUT = 3.05\nB_READ_TIMEOUT = 2\nB_CONNECT_TIMEOUT = 1\n"
            "\n\ndef a(u):\n    return requests.get(\n        u, timeout=" + RUNTIME + "\n    )\n\n\n"
            "def b(u):\n    requests.get(\n        u, timeout=" + RUNTIME + "\n    )\n"
            "    return requests.post(\n        u, timeout=timeout(read=B_READ_TIMEOUT, connect=B_CONNECT_TIMEOUT)\n    )\n",
            unsafe=True,
            target="runtime",
        ),
    ],
    "RES201": [
        Case(
            'hand-written-loop-gets-one-key-above-it',
            'import time\n\nimport requests\n\n\ndef pay(url, body):\n    for attempt in range(3):\n        try:\n            return requests.post(url, json=body, timeout=TIMEOUT)\n        except requests.ConnectionError:\n            time.sleep(0.5 * 2 ** attempt * random.random())\n    return None\n',
            'import time\n\nimport requests\nfrom resilint.runtime import idempotency_key\n\n\ndef pay(url, body):\n    post_key = idempotency_key()\n    for attempt in range(3):\n        try:\n            return requests.post(url, json=body, timeout=TIMEOUT, headers={"Idempotency-Key": post_key})\n        except requests.ConnectionError:\n            time.sleep(0.5 * 2 ** attempt * random.random())\n    return None\n',
            unsafe=True,
            target="runtime",
        ),
        Case(
            'native-target-loop-gets-a-uuid4-key-above-it',
            'import time\n\nimport requests\n\n\ndef pay(url, body):\n    for attempt in range(3):\n        try:\n            return requests.post(url, json=body, timeout=TIMEOUT)\n        except requests.ConnectionError:\n            time.sleep(0.5 * 2 ** attempt * random.random())\n    return None\n',
            'import time\nimport uuid\n\nimport requests\n\n\ndef pay(url, body):\n    post_key = str(uuid.uuid4())\n    for attempt in range(3):\n        try:\n            return requests.post(url, json=body, timeout=TIMEOUT, headers={"Idempotency-Key": post_key})\n        except requests.ConnectionError:\n            time.sleep(0.5 * 2 ** attempt * random.random())\n    return None\n',
            unsafe=True,
        ),
    ],
    "RES202": [
        Case(
            'tenacity-multi-line-decorator-with-comment',
            'import requests\nfrom tenacity import retry, stop_after_attempt, wait_exponential\n\n\n@retry(\n    stop=stop_after_attempt(3),\n    wait=wait_exponential(multiplier=1, max=10),  # doubling\n)\ndef fetch(url):\n    return requests.get(url, timeout=TIMEOUT)\n',
            'import requests\nfrom tenacity import retry, stop_after_attempt, wait_exponential, wait_random\n\n\n@retry(\n    stop=stop_after_attempt(3),\n    wait=wait_exponential(multiplier=1, max=10) + wait_random(0, 1),  # doubling\n)\ndef fetch(url):\n    return requests.get(url, timeout=TIMEOUT)\n',
        ),
        Case(
            'hand-written-loop-exponential-sleep',
            'import time\n\nimport requests\n\n\ndef fetch(url):\n    for attempt in range(3):\n        try:\n            return requests.get(url, timeout=TIMEOUT)\n        except requests.ConnectionError:\n            time.sleep(2 ** attempt)\n    return None\n',
            'import random\nimport time\n\nimport requests\n\n\ndef fetch(url):\n    for attempt in range(3):\n        try:\n            return requests.get(url, timeout=TIMEOUT)\n        except requests.ConnectionError:\n            time.sleep(2 ** attempt + random.uniform(0, 2 ** attempt))\n    return None\n',
        ),
        Case(
            'backoff-jitter-none-gets-backoffs-jitter-on-top',
            'import backoff\nimport requests\n\n\n@backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=3, jitter=None)\ndef fetch(url):\n    return requests.get(url, timeout=TIMEOUT)\n',
            'import backoff\nimport requests\n\n\n@backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=3, jitter=backoff.random_jitter)\ndef fetch(url):\n    return requests.get(url, timeout=TIMEOUT)\n',
        ),
        Case(
            'hand-written-loop-capped-sleep-keeps-its-cap-and-the-random-import',
            'import random\nimport time\n\nimport requests\n\n\ndef fetch(url):\n    for attempt in range(5):\n        try:\n            return requests.get(url, timeout=TIMEOUT)\n        except requests.ConnectionError:\n            time.sleep(min(0.5 * 2 ** attempt, 30))\n    return None\n',
            'import random\nimport time\n\nimport requests\n\n\ndef fetch(url):\n    for attempt in range(5):\n        try:\n            return requests.get(url, timeout=TIMEOUT)\n        except requests.ConnectionError:\n            time.sleep(\n                min(0.5 * 2 ** attempt + random.uniform(0, 0.5 * 2 ** attempt), 30)\n            )\n    return None\n',
        ),
        Case(
            'runtime-target-loop-still-gets-the-safe-jitter-on-top',
            'import time\n\nimport requests\n\n\ndef fetch(url):\n    for attempt in range(3):\n        try:\n            return requests.get(url, timeout=TIMEOUT)\n        except requests.ConnectionError:\n            time.sleep(5)\n    return None\n',
            'import random\nimport time\n\nimport requests\n\n\ndef fetch(url):\n    for attempt in range(3):\n        try:\n            return requests.get(url, timeout=TIMEOUT)\n        except requests.ConnectionError:\n            time.sleep(5 + random.uniform(0, 5))\n    return None\n',
            target="runtime",
        ),
    ],
    "RES203": [
        Case(
            'runtime-target-tenacity-keeps-its-own-library',
            'import requests\nfrom tenacity import retry, wait_random\n\n\n@retry(wait=wait_random(0, 1))\ndef fetch(url):\n    return requests.get(url, timeout=TIMEOUT)\n',
            'import requests\nfrom tenacity import retry, stop_after_attempt, wait_random\n\n\n@retry(wait=wait_random(0, 1), stop=stop_after_attempt(5))\ndef fetch(url):\n    return requests.get(url, timeout=TIMEOUT)\n',
            target="runtime",
        ),
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
