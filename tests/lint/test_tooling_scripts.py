"""Which scripts the project's test tooling runs (``lint.tooling_scripts``), read from real
configuration files on disk."""

from __future__ import annotations

from resilint.lint.config import Settings, is_test_code, with_test_scripts
from resilint.lint.tooling_scripts import tooling_scripts
from tests.conftest import write_tree

SCRIPTS = {name: "print('hi')\n" for name in (
    "make_user.py", "tools/seed.py", "ci/wait.py", "ci/cov.py", "nox_script.py", "app.py", "gitlab.py", "legacy.py",
)}


def test_tox_nox_and_ci_commands_name_their_scripts(tmp_path):
    write_tree(tmp_path, {
        **SCRIPTS,
        "tox.ini": (
            "[tox]\nenvlist = py311\n\n[testenv]\ncommands_pre = python {toxinidir}/tools/seed.py\n"
            "commands =\n    {env_python} make_user.py\n    pytest tests/\n    python -m pkg.main\n"
            "    python -c 'import x'\n    python missing.py\n"
        ),
        "noxfile.py": 'import nox\n\n@nox.session\ndef tests(session):\n    session.run("python", "nox_script.py")\n',
        ".github/workflows/ci.yaml": (
            "steps:\n  - run: |\n      python3.12 -X dev -W error ci/wait.py\n      coverage run ci/cov.py\n"
            "  - run: python app.py &\n"
        ),
        ".gitlab-ci.yml": "test:\n  script:\n    - python gitlab.py && pytest\n",
        "pyproject.toml": '[tool.tox]\nlegacy_tox_ini = """\n[testenv]\ncommands = python legacy.py\n"""\n',
    })
    assert tooling_scripts(str(tmp_path)) == [
        "ci/cov.py", "ci/wait.py", "gitlab.py", "legacy.py", "make_user.py", "nox_script.py", "tools/seed.py",
    ]


def test_a_command_continued_over_lines_names_its_script(tmp_path):
    # python-plexapi's CI: ``python \`` then ``-u tools/plex-bootstraptest.py \`` then its options
    write_tree(tmp_path, {
        "tools/bootstrap.py": "",
        ".github/workflows/ci.yaml": (
            "steps:\n  - run: |\n      python \\\n        -u tools/bootstrap.py \\\n        --destination x\n"
        ),
    })
    assert tooling_scripts(str(tmp_path)) == ["tools/bootstrap.py"]


def test_the_workspace_of_github_actions_is_the_project_root(tmp_path):
    write_tree(tmp_path, {
        ".github/helper/roulette.py": "", "ci/one.py": "", "ci/two.py": "",
        ".github/workflows/server-tests.yml": (
            "steps:\n  - run: python \"${GITHUB_WORKSPACE}/.github/helper/roulette.py\"\n"
            "  - run: python $GITHUB_WORKSPACE/ci/one.py\n"
            "  - run: python ${{ github.workspace }}/ci/two.py\n"
        ),
    })
    assert tooling_scripts(str(tmp_path)) == [".github/helper/roulette.py", "ci/one.py", "ci/two.py"]


def test_the_packagings_pytest_plugins_are_test_tooling(tmp_path):
    plugins = {name: "import pytest\n" for name in (
        "pulpcore/pytest_plugin.py", "pulp_file/pytest_plugin/__init__.py", "src/poetic/fixtures.py",
        "cfgpkg/plugin.py", "setuppkg/plugin.py", "pulpcore/app.py",
    )}
    write_tree(tmp_path / "pep621", {
        **plugins,
        "pyproject.toml": (
            '[project]\nname = "pulpcore"\n\n[project.entry-points."pytest11"]\n'
            'pulpcore = "pulpcore.pytest_plugin"\npulp_file = "pulp_file.pytest_plugin"\n\n'
            '[project.entry-points."pulpcore.plugin"]\napp = "pulpcore.app"\n'
        ),
    })
    assert tooling_scripts(str(tmp_path / "pep621")) == ["pulp_file/pytest_plugin/__init__.py", "pulpcore/pytest_plugin.py"]
    write_tree(tmp_path / "poetry", {
        **plugins, "pyproject.toml": '[tool.poetry.plugins.pytest11]\npoetic = "poetic.fixtures"\n',
    })
    assert tooling_scripts(str(tmp_path / "poetry")) == ["src/poetic/fixtures.py"]
    write_tree(tmp_path / "legacy", {
        **plugins,
        "setup.cfg": "[options.entry_points]\npytest11 =\n    cfg = cfgpkg.plugin\nconsole_scripts =\n    app = pulpcore.app:main\n",
        "setup.py": 'setup(entry_points={"pytest11": ["setuppkg = setuppkg.plugin"], "console_scripts": ["x = pulpcore.app"]})\n',
    })
    assert tooling_scripts(str(tmp_path / "legacy")) == ["cfgpkg/plugin.py", "setuppkg/plugin.py"]


def test_scripts_outside_the_project_and_unreadable_files_are_passed_over(tmp_path):
    write_tree(tmp_path / "project", {
        "tox.ini": "[testenv]\ncommands = python ../outside.py\n  python 'unbalanced.py\n",
    })
    write_tree(tmp_path, {"outside.py": ""})
    (tmp_path / "project" / ".gitlab-ci.yml").mkdir()  # a directory where a file was expected
    assert tooling_scripts(str(tmp_path / "project")) == []


def test_they_are_test_code_only_while_test_code_is_the_default(tmp_path):
    write_tree(tmp_path, {**SCRIPTS, "tox.ini": "[testenv]\ncommands = python tools/seed.py\n"})
    default = with_test_scripts(Settings(root=str(tmp_path)))
    assert default.test_scripts == ("tools/seed.py",)
    assert is_test_code(str(tmp_path / "tools" / "seed.py"), default)
    # matched by path, not by file name as a glob would be
    assert not is_test_code(str(tmp_path / "other" / "seed.py"), default)
    assert not is_test_code(str(tmp_path / "make_user.py"), default)
    configured = with_test_scripts(Settings(root=str(tmp_path), test_code=("tests/*",)))
    assert configured.test_scripts == ()
    assert not is_test_code(str(tmp_path / "tools" / "seed.py"), configured)


def test_the_tooling_of_the_checked_project_counts_wherever_resilint_runs(cli, tmp_path):
    # a CI smoke test's literal timeout (RES103) is test code's business, also when the
    # project is checked from another directory
    smoke = "import urllib.request\n\nurllib.request.urlopen('http://127.0.0.1:8080/', timeout=1)\n"
    write_tree(tmp_path / "project", {
        "builder/package.py": smoke,
        "app.py": smoke.replace("127.0.0.1", "api.example.com"),
        ".github/workflows/release.yml": "steps:\n  - run: python builder/package.py\n",
    })
    (tmp_path / "elsewhere").mkdir()
    result = cli(["check", str(tmp_path / "project"), "--format", "concise", "--no-cache"], tmp_path / "elsewhere")
    assert "app.py:3" in result.output and "package.py" not in result.output, result.output
    inside = cli(["check", ".", "--format", "concise", "--no-cache"], tmp_path / "project")
    assert "app.py:3" in inside.output and "package.py" not in inside.output, inside.output
