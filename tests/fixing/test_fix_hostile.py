"""``resilint fix`` under hostile input (issue 26): each case reproduced on real files in a
temporary directory, through the command line, with what the fixed program does checked by
running it where it matters. The fixes run with the runtime target (``--fix-target runtime``),
whose imports the hostile cases are about."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import libcst as cst

from resilint.codemods.add_timeout import AddTimeout
from resilint.fixing import fixer as fixer_module

from tests.conftest import write_tree

CALL = 'requests.get("u")'
FIXED_CALL = 'requests.get("u", timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT))'
NAMED = "HTTP_READ_TIMEOUT = 10\nHTTP_CONNECT_TIMEOUT = 3.05\n"  # the fix's seconds, named once per file


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
    result = cli(["fix", "--fix-target", "runtime", "--no-cache", "."], root)
    assert result.exit_code == 2
    assert "resilint: not written: a.py: is read-only" in result.stderr
    assert "Fixed 1 finding in 1 file (RES101: 1); 1 finding remaining." in result.stderr
    assert FIXED_CALL in (root / "b.py").read_text()
    assert (root / "a.py").read_text() == f"import requests\n\n{CALL}\n"


# --- 1. an existing import is reused only where it is bound before use ------------------------

TYPE_CHECKING_ONLY = """
    from typing import TYPE_CHECKING
    import requests

    if TYPE_CHECKING:
        from resilint.runtime import timeout


    def fetch():
        return requests.get("u")


    fetch()
"""
BELOW_A_CALL = """
    import requests

    requests.get("u")

    from resilint.runtime import timeout
"""
# --- 4. a star import below may rebind the name the fix imports ---------------------------------
STAR_BELOW = """
    import requests


    def fetch():
        return requests.get("u")


    from socket import *

    fetch()
"""
STAR_BELOW_AN_EXISTING_IMPORT = """
    import requests
    from resilint.runtime import timeout


    def fetch():
        return requests.get("u")


    from socket import *

    fetch()
"""


def test_the_fixed_call_never_reads_an_import_that_is_not_bound_or_is_rebound(cli, tmp_path):
    sources = {
        "type_checking.py": TYPE_CHECKING_ONLY, "below_a_call.py": BELOW_A_CALL,
        "star_below.py": STAR_BELOW, "star_below_import.py": STAR_BELOW_AN_EXISTING_IMPORT,
    }
    root = write_tree(tmp_path, sources)
    for name in sources:  # as they were: they run (requests waits forever, the stub does not)
        ran = _run_python(root / name, cwd=root)
        assert ran.returncode == 0 and ran.stdout == "timeout None\n", (name, ran.stderr)
    result = cli(["fix", "--fix-target", "runtime", "--no-cache", "."], root)
    assert "Fixed 4 findings in 4 files (RES101: 4); 0 findings remaining." in result.stderr
    for name in sources:
        text = (root / name).read_text()
        assert 'timeout=runtime_timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)' in text, text
        assert "from resilint.runtime import timeout as runtime_timeout" in text, text
        ran = _run_python(root / name, cwd=root)
        assert ran.returncode == 0, (name, ran.stderr)
        assert ran.stdout.startswith("timeout ") and "None" not in ran.stdout, (name, ran.stdout)


def test_an_import_bound_before_any_code_runs_is_reused(cli, tmp_path):
    root = write_tree(tmp_path, {"a.py": """
        import requests
        from resilint.runtime import timeout

        LIMIT = 3


        def fetch():
            return requests.get("u")


        fetch()
    """})
    cli(["fix", "--fix-target", "runtime", "--no-cache", "."], root)
    text = (root / "a.py").read_text()
    assert 'timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)' in text
    assert text.count("import timeout") == 1 and "runtime_timeout" not in text
    ran = _run_python(root / "a.py", cwd=root)
    assert ran.returncode == 0 and ran.stdout.startswith("timeout ") and "None" not in ran.stdout, ran.stderr


# --- 2. deep but valid code is fixed with the workers' stack; what is deeper stays per file ----


def _elif_chain(branches: int) -> str:
    lines = ["import requests", "", "", "def pick(x, u):", "    if x == 0:", "        pass"]
    for value in range(1, branches):
        lines += [f"    elif x == {value}:", "        pass"]
    return "\n".join(lines + ["    return requests.get(u)", ""])


def _long_or(terms: int) -> str:
    condition = " or ".join(f"v{i}" for i in range(terms))
    return f"import requests\n\n\ndef fetch(u):\n    ok = {condition}\n    return requests.get(u)\n"


def test_deep_code_is_fixed_like_check_says_and_other_files_too(cli, tmp_path):
    sources = {"a_elif.py": _elif_chain(900), "b_or.py": _long_or(400), "c_plain.py": f"import requests\n\n{CALL}\n"}
    root = write_tree(tmp_path, {})
    for name, text in sources.items():
        (root / name).write_text(text)
    checked = cli(["check", "--fix-target", "runtime", "--no-cache", "--format", "json", "."], root)
    fixable = {f["path"]: f["fix"] is not None for f in json.loads(checked.stdout)["findings"]}
    assert fixable == {"a_elif.py": True, "b_or.py": True, "c_plain.py": True}
    result = cli(["fix", "--fix-target", "runtime", "--no-cache", "."], root)
    assert result.exit_code == 0, result.stderr
    assert "Fixed 3 findings in 3 files (RES101: 3); 0 findings remaining." in result.stderr
    for name in sources:
        text = (root / name).read_text()
        assert "timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)" in text, name
        compile(text, name, "exec")


class _Bottomless(cst.Name):
    """A node too deep to generate however deep the stack: what LibCST's recursion raises then.
    (Raised, not recursed into: unbounded recursion on a thread exhausts memory instead on
    Python 3.13.0, whose recursion limit there does not stop it.)"""

    def _codegen_impl(self, state, default_semicolon=False):  # type: ignore[no-untyped-def]
        raise RecursionError("maximum recursion depth exceeded")


class _TooDeepForDeepFiles(AddTimeout):
    """The real add-timeout, whose result for ``deep.py`` cannot even be generated."""

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        updated = super().leave_Module(original_node, updated_node)
        if (self.context.filename or "").endswith("deep.py"):
            return updated.with_changes(body=[cst.SimpleStatementLine([cst.Expr(_Bottomless("x"))]), *updated.body])
        return updated


def test_a_recursion_error_left_in_one_file_is_that_files_error_and_the_others_are_fixed(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(fixer_module, "all_codemods", lambda: {"add-timeout": _TooDeepForDeepFiles})
    source = f"import requests\n\n{CALL}\n"
    root = write_tree(tmp_path, {"a.py": source, "deep.py": source, "z.py": source})
    result = cli(["fix", "--fix-target", "runtime", "--no-cache", "."], root)
    assert result.exit_code == 2
    assert "resilint: not written: deep.py: nested too deeply to be fixed (RecursionError); left as it was" in result.stderr
    assert "Fixed 2 findings in 2 files (RES101: 2); 1 finding remaining." in result.stderr
    assert (root / "deep.py").read_text() == source
    assert FIXED_CALL in (root / "a.py").read_text() and FIXED_CALL in (root / "z.py").read_text()


# --- 5. a symbolic link out of the tree is not written through ----------------------------------


def test_fix_never_rewrites_a_file_outside_the_tree_through_a_symbolic_link(cli, tmp_path):
    source = f"import requests\n\n{CALL}\n"
    write_tree(tmp_path, {"outside/target.py": source, "project/real.py": source})
    project = tmp_path / "project"
    (project / "out.py").symlink_to(tmp_path / "outside" / "target.py")
    (project / "in.py").symlink_to(project / "real.py")
    result = cli(["fix", "--fix-target", "runtime", "--no-cache", "."], project)
    assert (tmp_path / "outside" / "target.py").read_text() == source
    assert result.exit_code == 2
    assert "resilint: not written: out.py: is reached through a symbolic link and lies outside the project root" in result.stderr
    assert "Fixed 1 finding in 1 file (RES101: 1); 1 finding remaining." in result.stderr
    # a link inside the tree is followed: the target is fixed once and the link stays a link
    assert FIXED_CALL in (project / "real.py").read_text()
    assert (project / "in.py").is_symlink() and (project / "out.py").is_symlink()
    assert sorted(p.name for p in (tmp_path / "outside").iterdir()) == ["target.py"]


# --- 6. extended attributes and POSIX ACLs survive the atomic rename -----------------------------


def _acl(entries) -> bytes:
    """A ``system.posix_acl_access`` value as the kernel stores it (what ``setfacl`` writes):
    version 2, then (tag, permissions, id) per entry."""
    import struct

    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", tag, perms, ident) for tag, perms, ident in entries)


UNDEFINED_ID = 0xFFFFFFFF
# user::rw- user:12345:rw- group::--- mask::rw- other::---: the owning group has no access, and
# the mode's group bits show the mask (rw-), which is what the group would get without the ACL.
GROUP_SHUT_OUT = _acl([
    (0x01, 6, UNDEFINED_ID), (0x02, 6, 12345), (0x04, 0, UNDEFINED_ID), (0x10, 6, UNDEFINED_ID), (0x20, 0, UNDEFINED_ID),
])


def test_extended_attributes_and_the_acl_are_kept(cli, tmp_path):
    root = write_tree(tmp_path, {"a.py": f"import requests\n\n{CALL}\n"})
    target = root / "a.py"
    os.chmod(target, 0o640)
    expected = {}
    for name, value in (("user.origin", b"kept by resilint"), ("system.posix_acl_access", GROUP_SHUT_OUT)):
        try:
            os.setxattr(target, name, value)
            expected[name] = value
        except OSError:  # a filesystem without them: what it has (the mode) is still checked
            pass
    mode = stat.S_IMODE(os.stat(target).st_mode)
    if "system.posix_acl_access" in expected:
        assert mode & 0o070 == 0o060  # the ACL's mask, not what the owning group may do
    result = cli(["fix", "--fix-target", "runtime", "--no-cache", "."], root)
    assert result.exit_code == 0, result.stderr
    assert FIXED_CALL in target.read_text()
    assert {name: os.getxattr(target, name) for name in os.listxattr(target)} == expected
    assert stat.S_IMODE(os.stat(target).st_mode) == mode


# --- 10. SIGTERM while the temporary file is being created ------------------------------------

# The signal is sent by the process to itself the moment ``mkstemp`` has created the temporary
# file, before ``mkstemp`` returns: the window in which it used to leave an empty file behind.
SIGTERM_AT_MKSTEMP = """
import os, signal, sys, tempfile

real_mkstemp = tempfile.mkstemp

def mkstemp(*args, **kwargs):
    created = real_mkstemp(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGTERM)
    return created

tempfile.mkstemp = mkstemp
from resilint.cli import main

main(sys.argv[1:])
"""


def test_sigterm_while_the_temporary_file_is_created_leaves_no_temporary_file(tmp_path):
    source = f"import requests\n\n{CALL}\n"
    root = write_tree(tmp_path, {"a.py": source, "b.py": source})
    driver = tmp_path / "driver.py"
    driver.write_text(SIGTERM_AT_MKSTEMP)
    rewritten = {
        "fix": f"import requests\nfrom resilint.runtime import timeout\n\n{NAMED}\n{FIXED_CALL}\n",
        "check": f"import requests\n\n{CALL}  # noqa: RES101\n",
    }
    for command in (["fix", "--fix-target", "runtime"], ["check", "--add-noqa"]):
        ran = subprocess.run(
            [sys.executable, str(driver), *command, "--no-cache", "."], cwd=root, capture_output=True, text=True, timeout=300,
        )
        assert ran.returncode == 143, (command, ran.returncode, ran.stderr)
        assert "resilint: terminated" in ran.stderr
        assert sorted(p.name for p in root.iterdir()) == ["a.py", "b.py", "driver.py"], command
        for name in ("a.py", "b.py"):  # each file whole: as it was, or completely rewritten
            assert (root / name).read_text() in (source, rewritten[command[0]])
        assert rewritten[command[0]] in ((root / "a.py").read_text(), (root / "b.py").read_text()), "one file was being written"
        for name in ("a.py", "b.py"):
            (root / name).write_text(source)


# --- 9. what LibCST does not print back byte for byte is kept as the file has it ----------------

ADDED_IMPORT = "from resilint.runtime import timeout"
FIXED_U = "requests.get(\n        u, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)\n    )"


def test_cr_line_endings_and_form_feeds_are_kept_byte_for_byte(cli, tmp_path):
    cases = {
        "cr_only.py": (
            b'import requests\r\rrequests.get("u")\r',
            (f'import requests\r{ADDED_IMPORT}\r\r' + NAMED.replace('\n', '\r') + f'\r{FIXED_CALL}\r').encode(),
        ),
        "form_feed_top.py": (
            b'import requests\n\n\x0cx = 1\nrequests.get("u")\n',
            f'import requests\n{ADDED_IMPORT}\n\n{NAMED}\n\x0cx = 1\n{FIXED_CALL}\n'.encode(),
        ),
        "form_feed_top_call.py": (
            b'import requests\n\n\x0crequests.get("u")\n',
            f'import requests\n{ADDED_IMPORT}\n\n{NAMED}\n\x0c{FIXED_CALL}\n'.encode(),
        ),
        "form_feed_indented.py": (
            b'import requests\n\n\ndef f(u):\n\x0c    x = 1\n    return requests.get(u)\n',
            f'import requests\n{ADDED_IMPORT}\n\n{NAMED}\n\ndef f(u):\n\x0c    x = 1\n    return {FIXED_U}\n'.encode(),
        ),
        "form_feed_on_the_fixed_line.py": (
            b'import requests\n\n\ndef f(u):\n    x = 1\n\x0c    return requests.get(u)\n',
            f'import requests\n{ADDED_IMPORT}\n\n{NAMED}\n\ndef f(u):\n    x = 1\n\x0c    return {FIXED_U}\n'.encode(),
        ),
        "form_feed_page_break.py": (
            b'import requests\n\x0c\n\ndef f(u):\n    return requests.get(u)\n\x0c\n',
            f'import requests\n{ADDED_IMPORT}\n\n{NAMED}\x0c\n\ndef f(u):\n    return {FIXED_U}\n\x0c\n'.encode(),
        ),
    }
    root = tmp_path
    for name, (before, _) in cases.items():
        (root / name).write_bytes(before)
    result = cli(["fix", "--fix-target", "runtime", "--no-cache", "."], root)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"Fixed {len(cases)} findings in {len(cases)} files" in result.stderr
    for name, (_, after) in cases.items():
        assert (root / name).read_bytes() == after, name
    again = cli(["fix", "--fix-target", "runtime", "--no-cache", "."], root)
    assert "Fixed 0 findings in 0 files" in again.stderr
    for name, (_, after) in cases.items():
        assert (root / name).read_bytes() == after, name


def test_a_change_to_a_line_printed_otherwise_than_written_is_refused_not_guessed():
    from resilint.fixing.edits import carry_over

    # leading whitespace and line breaks are the file's own; lines the change does not touch
    # are the file's whatever LibCST printed for them
    assert carry_over("a\r\x0c  b(x)\r", "a\r  b(x)", "a\rz\r  b(x, t)") == "a\rz\r\x0c  b(x, t)\r"
    assert carry_over("a( 1 )\nb(x)\n", "a(1)\nb(x)\n", "a(1)\nb(x, t)\n") == "a( 1 )\nb(x, t)\n"
    # any other difference on a changed line: nothing is carried over
    assert carry_over("b( x )\n", "b(x)\n", "b(x, t)\n") is None


# --- 3. an import other code imports from this module is never removed --------------------------

POLICY = """
    from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential


    @retry(
        wait=wait_exponential(multiplier=1, max=10), stop=stop_after_attempt(3),
        retry=retry_if_exception_type(OSError), reraise=True,
    )
    def call():
        pass
"""


def test_a_fix_keeps_an_import_that_another_module_imports_from_this_one(cli, tmp_path):
    # migrate-to-runtime rewrites the tenacity decorator: its imports are then unused here, and
    # removed unless another module imports them from this one
    root = write_tree(tmp_path, {
        "lib/__init__.py": "from tenacity import wait_exponential\n",
        "lib/policy.py": POLICY,
        "lib/listed.py": textwrap.dedent(POLICY) + '\n__all__ = ["call", "wait_exponential"]\n',
        "lib/alone.py": POLICY,
        "lib/user.py": "from lib.policy import wait_exponential\n\nWAIT = wait_exponential(multiplier=2)\n",
    })
    result = cli(["codemod", "migrate-to-runtime", "--no-cache", "."], root)
    assert result.exit_code == 0, result.stdout + result.stderr
    for name in ("policy", "listed", "alone"):
        assert "retry(attempts=3, base=1, cap=10, retry_on=(OSError,))\ndef call" in (root / "lib" / f"{name}.py").read_text()
    assert "from tenacity import wait_exponential\n" in (root / "lib" / "policy.py").read_text()
    assert "from tenacity import wait_exponential\n" in (root / "lib" / "listed.py").read_text()
    # nothing imports it from ``lib.alone``: the import the fix left unused goes
    assert "wait_exponential" not in (root / "lib" / "alone.py").read_text()
    ran = subprocess.run(
        [sys.executable, "-c", "import lib.user, lib.listed, lib.alone; from lib.listed import *; print(wait_exponential)"],
        cwd=root, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert ran.returncode == 0, ran.stderr


# --- 7. a project module named like a library is the project's ---------------------------------


def test_a_project_module_that_shadows_a_library_is_not_judged_or_fixed_as_the_library(cli, tmp_path):
    app = f"import requests\n\n{CALL}\n"
    root = write_tree(tmp_path, {
        "requests.py": "def get(url):\n    return url\n",  # at the project root: what `import requests` finds
        "app.py": app,
        "scripts/socket.py": "def create_connection(address):\n    return address\n",
        "scripts/run.py": "import socket\n\nsocket.create_connection(('db', 5432))\n",  # a script: its directory first
        "pkg/__init__.py": "",
        "pkg/socket.py": "",
        "pkg/client.py": "import socket\n\nsocket.create_connection(('db', 5432))\n",  # in a package: the library
    })
    checked = cli(["check", "--fix-target", "runtime", "--no-cache", "--format", "json", "."], root)
    assert [(f["path"], f["code"]) for f in json.loads(checked.stdout)["findings"]] == [("pkg/client.py", "RES101")]
    result = cli(["fix", "--fix-target", "runtime", "--no-cache", "--unsafe-fixes", "."], root)
    assert (root / "app.py").read_text() == app
    assert "timeout" not in (root / "scripts" / "run.py").read_text()
    codemod = cli(["codemod", "add-timeout", "--no-cache", "app.py"], root)
    assert (root / "app.py").read_text() == app, codemod.stderr
    assert result.exit_code == 1  # the library's socket call in the package remains (no safe fix for it)


def test_a_package_named_like_the_library_is_the_library_itself(cli, tmp_path):
    # requests' own repository (or a vendored copy): its tests call the library
    root = write_tree(tmp_path, {
        "requests/__init__.py": "def get(url, **kwargs):\n    return url\n",
        "tests/test_get.py": "import requests\n\n\ndef test_get():\n    requests.get('https://example.com')\n",
    })
    checked = cli(["check", "--no-cache", "--format", "json", "."], root)
    assert [(f["path"], f["code"]) for f in json.loads(checked.stdout)["findings"]] == [("tests/test_get.py", "RES101")]
