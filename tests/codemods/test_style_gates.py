"""Fixed files pass the gates projects run on them: a project on disk, formatted by black as
its configuration says, fixed by ``resilint fix`` (a real run of the command), then held to
the real ``black --check``, ``ruff format --check`` and ``ruff check --select I``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent

CLIENT = '''\
"""Calls to the inventory service."""

import logging
import time

import requests

from inventory import settings

log = logging.getLogger(__name__)


def stock_level(sku):
    return requests.get(f"{settings.INVENTORY_URL}/stock/levels/{sku}").json()


def reserve(sku, quantity):
    response = requests.put(
        f"{settings.INVENTORY_URL}/stock/{sku}/reservations",
        json={"quantity": quantity},
    )
    return response.status_code == 201


class Reports:
    def __init__(self, base_url):
        self.base_url = base_url

    def nightly(self, day):
        with requests.get(f"{self.base_url}/reports/{day}", stream=True) as response:
            return response.content

    def totals(self):
        requests.post(f"{self.base_url}/totals", json={"all": True}, timeout=None)
        return requests.get(f"{self.base_url}/totals", timeout=2.5)


def ping():
    return requests.head(settings.INVENTORY_URL, allow_redirects=False)


def short(u):
    return requests.get(u)


def node_health(consul_addr, node_name):
    health = requests.get(f"http://{consul_addr}/v1/health/node/{node_name}/checks")
    return health.json()


def wait_for_stock_service(reservation_retry_delay_in_seconds=0.5):
    for _ in range(10):
        try:
            return requests.get(settings.INVENTORY_URL, timeout=settings.TIMEOUT)
        except requests.ConnectionError:
            time.sleep(reservation_retry_delay_in_seconds)


class Accounts:
    def __init__(self, base_url, timeout=None):
        self.base_url = base_url
        self.timeout = timeout

    def deactivate(self, username):
        if username:
            try:
                response = requests.post(
                    f"{self.base_url}/admin/rest/um/1/user/deactivate",
                    headers={"Content-Type": "application/json"},
                    data={},
                )
                return response.status_code
            except requests.RequestException:
                return None

    def profile(self, username):
        return requests.get(f"{self.base_url}/users/{username}/profile").json()


def follow_stock_stream(url, http_error_wait=60, http_error_wait_max=320):
    while True:
        response = requests.get(url, stream=True, timeout=settings.TIMEOUT)
        if response.status_code == 200:
            return response
        if response.status_code in (420, 429):
            time.sleep(http_error_wait)
            http_error_wait *= 2
            if http_error_wait > http_error_wait_max:
                http_error_wait = http_error_wait_max
'''

CONFIGS = {
    "defaults": "[project]\nname = 'inventory'\n",
    "black-and-ruff-79": "[tool.black]\nline-length = 79\n\n[tool.ruff]\nline-length = 79\n",
    "ruff-100": "[tool.ruff]\nline-length = 100\n",
}


def _tool(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=300)


def _black_args(name: str) -> list:
    # black reads [tool.black]; a project configuring ruff only gives black the same length
    return ["--line-length", "100"] if name == "ruff-100" else []


@pytest.mark.parametrize("target", ["runtime", "native"])
@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_fixed_file_passes_black_ruff_format_and_ruff_isort(tmp_path, name, target):
    (tmp_path / "pyproject.toml").write_text(CONFIGS[name].replace("\\\n", "\n"))
    (tmp_path / "inventory").mkdir()
    (tmp_path / "inventory" / "__init__.py").write_text("")
    (tmp_path / "inventory" / "settings.py").write_text("URL = INVENTORY_URL = 'https://inventory.internal'\n")
    client = tmp_path / "inventory" / "client.py"
    client.write_text(CLIENT)
    black = [sys.executable, "-m", "black", "-q", *_black_args(name)]
    ruff = str(BIN / "ruff")
    # the project as its formatter leaves it: every gate passes before the fix
    assert _tool(*black, str(client), cwd=tmp_path).returncode == 0
    before = client.read_text()
    assert _tool(ruff, "format", "--check", "--no-cache", str(client), cwd=tmp_path).returncode == 0, before
    assert _tool(ruff, "check", "--select", "I", "--no-cache", str(client), cwd=tmp_path).returncode == 0, before
    fix = [str(BIN / "resilint"), "fix", "--unsafe-fixes", "--no-cache", "--fix-target", target]
    done = _tool(*fix, str(client), cwd=tmp_path)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    after = client.read_text()
    assert after != before
    assert "timeout=2.5" not in after and "}, timeout=None" not in after
    assert "/checks\",\n" in after or "/checks\", timeout=" in after  # a lone argument's call got its timeout
    # the user's own timeout, where set, before the bound: split before `or` where too long
    assert after.count("self.timeout\n") + after.count("self.timeout or ") == 2, after
    # both retry loops' sleeps gained their random term, grown past the line length
    assert after.count("random.uniform(0, reservation_retry_delay_in_seconds)") == 1
    assert after.count("random.uniform(0, http_error_wait)") == 1
    for check in (
        [*black, "--check", "--diff", str(client)],
        [ruff, "format", "--check", "--diff", "--no-cache", str(client)],
        [ruff, "check", "--select", "I", "--no-cache", str(client)],
    ):
        result = _tool(*check, cwd=tmp_path)
        assert result.returncode == 0, f"{check[:3]}\n{after}\n{result.stdout}{result.stderr}"
    compile(after, str(client), "exec")

