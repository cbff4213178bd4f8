"""The pre-commit hooks, run by the real pre-commit and git against this repository: the hooks,
their cache while pre-commit stashes unstaged changes, the README's configuration with a
commit SHA, and what ``pre-commit autoupdate`` does with it before and after a release tag.

The hooks run from one commit of this repository's working tree (as ``pre-commit try-repo``
makes one), made once per test session with fixed dates so that every xdist worker makes the
same commit, and one pre-commit home: pre-commit then installs the hooks' environment once and
its own lock keeps the workers from installing it twice (``try-repo`` installs it afresh on
every run, ~25 s each)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO

pytestmark = pytest.mark.slow


def git(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def project(tmp_path):
    work = tmp_path / "project"
    work.mkdir()
    git("init", "-q", cwd=work)
    git("config", "user.email", "dev@example.com", cwd=work)
    git("config", "user.name", "Dev", cwd=work)
    (work / "client.py").write_text("import requests\n\n\ndef fetch(url):\n    return requests.get(url)\n")
    (work / "requirements.txt").write_text("requests\nresilint-runtime\n")  # the fix may use the runtime
    git("add", "client.py", "requirements.txt", cwd=work)
    return work


def run_pre_commit(args, project, home):
    if not (REPO / ".git").exists():
        pytest.fail("the pre-commit test needs this repository as a git checkout")
    executable = shutil.which("pre-commit") or os.path.join(os.path.dirname(sys.executable), "pre-commit")
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    env.pop("FORCE_COLOR", None)
    env.pop("RESILINT_CACHE_DIR", None)
    return subprocess.run([executable, *args], cwd=project, capture_output=True, text=True, env=env, timeout=900)


FIXED_DATES = {"GIT_AUTHOR_DATE": "2024-01-01T00:00:00+00:00", "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+00:00"}


@pytest.fixture(scope="session")
def shared_dir(tmp_path_factory):
    """A directory every xdist worker of this session sees."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def working_tree_commit(shared_dir):
    """(a repository, a commit) holding this repository's working tree, uncommitted changes to
    tracked files included, as ``pre-commit try-repo`` commits them."""
    if not (REPO / ".git").exists():
        pytest.fail("the pre-commit test needs this repository as a git checkout")
    private = Path(tempfile.mkdtemp(dir=shared_dir))
    git("clone", "-q", str(REPO), str(private), cwd=shared_dir)
    for name in git("ls-files", "-z", cwd=REPO).split("\0"):
        source, target = REPO / name, private / name
        if source.is_file() and not source.is_symlink():
            shutil.copyfile(source, target)
            shutil.copymode(source, target)
        elif not source.exists() and target.exists():
            target.unlink()
    git("add", "-A", cwd=private)
    subprocess.run(
        ["git", "-c", "user.email=dev@example.com", "-c", "user.name=Dev", "commit", "-q", "--allow-empty",
         "--no-verify", "-m", "the working tree"],
        cwd=private, check=True, capture_output=True, env=dict(os.environ, **FIXED_DATES),
    )
    sha = git("rev-parse", "HEAD", cwd=private).strip()
    shadow = shared_dir / f"working-tree-{sha[:12]}"
    try:
        os.rename(private, shadow)
    except OSError:  # another worker made the same commit first
        shutil.rmtree(private)
    return shadow, sha


@pytest.fixture(scope="session")
def home(shared_dir):
    return shared_dir / "pre-commit-home"


def pre_commit(project, home, shadow, hook="resilint", files=("client.py",)):
    """This repository's hook (its working tree, uncommitted changes included) on ``files``,
    or, with ``files=None``, on the staged files as a commit does: then pre-commit stashes the
    unstaged changes while the hook runs. The configuration lies outside the project, as
    ``try-repo``'s does, so that git does not see it."""
    repo, sha = shadow
    config = project.parent / f"pre-commit-config-{hook}.yaml"
    config.write_text(yaml.safe_dump({"repos": [{"repo": str(repo), "rev": sha, "hooks": [{"id": hook}]}]}))
    chosen = ["--files", *files] if files is not None else []
    return run_pre_commit(["run", "--config", str(config), hook, *chosen], project, home)


def test_hook_fails_on_the_finding_and_passes_once_fixed(project, home, working_tree_commit):
    failing = pre_commit(project, home, working_tree_commit)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "client.py:5:12: RES101" in failing.stdout
    assert "requests waits forever by default" in failing.stdout

    (project / "client.py").write_text(
        "import requests\n\n\ndef fetch(url, timeout):\n    return requests.get(url, timeout=timeout)\n"
    )
    git("add", "client.py", cwd=project)
    passing = pre_commit(project, home, working_tree_commit)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout


def test_fix_hook_fixes_the_file_fails_once_and_passes_after(project, home, working_tree_commit):
    fixing = pre_commit(project, home, working_tree_commit, "resilint-fix")
    assert fixing.returncode == 1, fixing.stdout + fixing.stderr
    assert "files were modified by this hook" in fixing.stdout
    assert "Fixed 1 finding in 1 file (RES101: 1); 0 findings remaining." in fixing.stdout
    assert (project / "client.py").read_text() == (
        "import requests\nfrom resilint.runtime import timeout\n\nHTTP_READ_TIMEOUT = 10\nHTTP_CONNECT_TIMEOUT = 3.05\n\n\n"
        "def fetch(url):\n    return requests.get(\n"
        "        url, timeout=timeout(read=HTTP_READ_TIMEOUT, connect=HTTP_CONNECT_TIMEOUT)\n    )\n"
    )
    git("add", "client.py", cwd=project)
    passing = pre_commit(project, home, working_tree_commit, "resilint-fix")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout


def test_the_hooks_use_the_cache():
    for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")):
        assert "--no-cache" not in hook["entry"], hook["id"]


WRAPPER_WITHOUT_TIMEOUT = "import requests\n\n\ndef fetch(url, **kwargs):\n    return requests.get(url, **kwargs)\n"
WRAPPER_WITH_TIMEOUT = (
    "import requests\n\n\ndef fetch(url, **kwargs):\n"
    "    kwargs.setdefault(\"timeout\", 10)\n    return requests.get(url, **kwargs)\n"
)
CALLER = "from helpers import fetch\n\n\ndef prices():\n    return fetch(\"https://prices.example.com\")\n"


def test_a_commit_is_judged_on_its_staged_text_while_the_cache_knows_the_working_tree(project, home, working_tree_commit):
    # Staged: a wrapper that passes no timeout, and a caller (RES101 at the call, found through
    # the other module). Unstaged: the wrapper fixed. The working tree is checked first, so the
    # cache holds the fixed text; the commit must still fail, on what it commits.
    git("commit", "-q", "-m", "the project so far", cwd=project)
    (project / "helpers.py").write_text(WRAPPER_WITHOUT_TIMEOUT)
    (project / "prices.py").write_text(CALLER)
    git("add", "helpers.py", "prices.py", cwd=project)
    (project / "helpers.py").write_text(WRAPPER_WITH_TIMEOUT)
    warm = subprocess.run(
        [sys.executable, "-m", "resilint", "check", "helpers.py", "prices.py"], cwd=project, capture_output=True, text=True,
    )
    assert warm.returncode == 0, warm.stdout + warm.stderr
    assert (project / ".resilint_cache").is_dir()

    committing = pre_commit(project, home, working_tree_commit, files=None)
    assert committing.returncode == 1, committing.stdout + committing.stderr
    assert "prices.py:5:12: RES101" in committing.stdout
    assert "Stashing unstaged files" in committing.stdout + committing.stderr
    # pre-commit put the unstaged change back; resilint's cache is not something git sees
    assert (project / "helpers.py").read_text() == WRAPPER_WITH_TIMEOUT
    assert git("status", "--porcelain", "--untracked-files=all", cwd=project) == "AM helpers.py\nA  prices.py\n"

    # Staged: the fix. Unstaged: the wrapper broken again. The commit passes, with the cache
    # now holding both texts of helpers.py.
    git("add", "helpers.py", cwd=project)
    (project / "helpers.py").write_text(WRAPPER_WITHOUT_TIMEOUT)
    passing = pre_commit(project, home, working_tree_commit, files=None)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert (project / "helpers.py").read_text() == WRAPPER_WITHOUT_TIMEOUT
    again = pre_commit(project, home, working_tree_commit, files=None)
    assert again.returncode == 0, again.stdout + again.stderr


def readme_pre_commit_config():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("**pre-commit**"):]
    block = section[section.index("```yaml") + len("```yaml"):]
    return yaml.safe_load(block[:block.index("```")])


@pytest.fixture
def upstream(tmp_path):
    """A clone of this repository standing for https://github.com/resilint/resilint."""
    clone = tmp_path / "upstream"
    git("clone", "-q", "--no-local", str(REPO), str(clone), cwd=tmp_path)
    git("config", "user.email", "dev@example.com", cwd=clone)
    git("config", "user.name", "Dev", cwd=clone)
    return clone


def test_the_readme_configuration_with_a_commit_sha_runs_the_hook(project, home, working_tree_commit):
    config = readme_pre_commit_config()
    [repo] = config["repos"]
    assert repo["repo"] == "https://github.com/resilint/resilint"
    assert [hook["id"] for hook in repo["hooks"]] == ["resilint"]
    shadow, sha = working_tree_commit
    repo.update(repo=str(shadow), rev=sha)
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    run = run_pre_commit(["run", "--files", "client.py"], project, home)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "client.py:5:12: RES101" in run.stdout


def test_autoupdate_moves_a_sha_to_the_newest_commit_until_a_release_is_tagged(project, upstream, tmp_path):
    home = tmp_path / "pre-commit-home"
    first = git("rev-parse", "HEAD", cwd=upstream).strip()
    config = {"repos": [{"repo": str(upstream), "rev": first, "hooks": [{"id": "resilint"}]}]}
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    git("commit", "-q", "--allow-empty", "-m", "a later commit", cwd=upstream)
    newest = git("rev-parse", "HEAD", cwd=upstream).strip()

    def rev_after_autoupdate():
        run = run_pre_commit(["autoupdate"], project, home)
        assert run.returncode == 0, run.stdout + run.stderr
        return yaml.safe_load((project / ".pre-commit-config.yaml").read_text())["repos"][0]["rev"]

    assert rev_after_autoupdate() == newest  # no tag: the default branch's newest commit
    git("tag", "v0.1.0", first, cwd=upstream)
    assert rev_after_autoupdate() == "v0.1.0"  # the newest tag reachable from it
    git("commit", "-q", "--allow-empty", "-m", "after the release", cwd=upstream)
    assert rev_after_autoupdate() == "v0.1.0"  # untagged commits after a release: stays
    git("tag", "v0.2.0", cwd=upstream)
    assert rev_after_autoupdate() == "v0.2.0"
