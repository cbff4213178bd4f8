"""``resilint fix`` under hostile input (issue 26): each case reproduced on real files in a
temporary directory, through the command line, with what the fixed program does checked by
running it where it matters."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import write_tree

CALL = 'requests.get("u")'
FIXED_CALL = 'requests.get("u", timeout=timeout(read=10, connect=3.05))'


def _run_python(path: Path, *, cwd: Path) -> subprocess.CompletedProcess:
    """Run a fixed module with a stand-in ``requests`` that records the timeout it was given,
    so that a NameError or a wrong ``timeout`` shows."""
    stub = cwd / "_stub"
    stub.mkdir(exist_ok=True)
    (stub / "requests.py").write_text("def get(url, timeout=None):\n    print('timeout', timeout)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(stub), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, str(path)], cwd=cwd, env=env, capture_output=True, text=True)


# --- 8. refused writes are not counted as fixed -----------------------------------------------


def test_a_refused_write_is_not_counted_as_fixed(cli, tmp_path):
    root = write_tree(tmp_path, {"a.py": f"import requests\n\n{CALL}\n", "b.py": f"import requests\n\n{CALL}\n"})
    os.chmod(root / "a.py", 0o444)
    result = cli(["fix", "--no-cache", "."], root)
    assert result.exit_code == 2
    assert "resilint: not written: a.py: is read-only" in result.stderr
    assert "Fixed 1 finding in 1 file (RES101: 1); 1 finding remaining." in result.stderr
    assert FIXED_CALL in (root / "b.py").read_text()
    assert (root / "a.py").read_text() == f"import requests\n\n{CALL}\n"
