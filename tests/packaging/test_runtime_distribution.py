"""The runtime-only distribution (packaging/resilint-runtime): an application installs it, and
nothing of the linter's stack, and code that the codemods rewrote runs there."""

from __future__ import annotations

import subprocess
import sys
import venv

import pytest

import resilint
from resilint.codemods.idempotency_key import AddIdempotencyKey
from resilint.codemods.loop_full_jitter import LoopFullJitter
from resilint.runtime.testing import serve_wsgi
from tests.codemods.support import rewrite
from tests.conftest import REPO
from tests.runtime.support import Script

DISTRIBUTION = REPO / "packaging" / "resilint-runtime"

# stdlib only, so that it can run where nothing but the runtime is installed
PAYMENT = """
    import http.client, sys, time
    from urllib.parse import urlsplit

    def pay(url, body):
        parts = urlsplit(url)
        for attempt in range(3):
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
            try:
                conn.request("POST", "/pay", body)
                response = conn.getresponse()
                if response.status == 200:
                    return response.status
            finally:
                conn.close()
            time.sleep(0.01 * 2 ** attempt)

    if __name__ == "__main__":
        print(pay(sys.argv[1], b"{}"), pay(sys.argv[1], b"{}"))
    """


def test_the_runtime_distribution_has_resilints_version():
    text = (DISTRIBUTION / "pyproject.toml").read_text(encoding="utf-8")
    assert f'version = "{resilint.__version__}"' in text
    assert "dependencies = []" in text


@pytest.mark.slow
def test_fixed_code_runs_where_only_the_runtime_is_installed(tmp_path):
    fixed, _ = rewrite(LoopFullJitter, PAYMENT, fix_target="runtime")
    fixed, _ = rewrite(AddIdempotencyKey, fixed, fix_target="runtime")
    assert "from resilint.runtime import full_jitter, idempotency_key\n" in fixed  # one import line for both fixes, in isort's order
    script = tmp_path / "payment.py"
    script.write_text(fixed, encoding="utf-8")

    env_dir = tmp_path / "production"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(DISTRIBUTION)],
        capture_output=True, text=True, timeout=300,
    )
    assert install.returncode == 0, install.stderr
    absent = subprocess.run(
        [str(python), "-c", "import importlib.util as u; print([m for m in ('libcst', 'click', 'rich', 'resilint.cli') if u.find_spec(m)])"],
        capture_output=True, text=True, timeout=60,
    )
    assert absent.stdout.strip() == "[]", absent.stderr

    app = Script((503, 0.0), (200, 0.0), (503, 0.0), (200, 0.0))
    with serve_wsgi(app) as url:
        ran = subprocess.run([str(python), str(script), url], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["200", "200"]
    keys = [seen["HTTP_IDEMPOTENCY_KEY"] for seen in app.seen]
    assert keys[0] == keys[1] and keys[2] == keys[3] and keys[0] != keys[2]
