"""What a project declares, read from its real files, and the fix target ``auto`` picks from it."""

from __future__ import annotations

import textwrap

import pytest

from resilint.lint.config import ConfigError, Settings, load_settings
from resilint.lint.dependencies import choose_fix_target, project_root, read_dependencies

REQUEST = "import requests\n\nrequests.get('https://a.example')\n"


def _write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))


DECLARING = {
    "pyproject-dependencies": {"pyproject.toml": """
        [project]
        name = "app"
        dependencies = ["requests>=2", "resilint-runtime>=0.1; python_version >= '3.9'"]
        """},
    "pyproject-optional-dependencies": {"pyproject.toml": """
        [project]
        name = "app"
        [project.optional-dependencies]
        prod = ["Resilint[runtime]"]
        """},
    "pyproject-dependency-groups": {"pyproject.toml": """
        [dependency-groups]
        prod = ["resilint_runtime"]
        """},
    "poetry": {"pyproject.toml": """
        [tool.poetry.dependencies]
        python = "^3.9"
        resilint-runtime = "^0.1"
        """},
    "poetry-group": {"pyproject.toml": """
        [tool.poetry.group.prod.dependencies]
        resilint-runtime = { version = "^0.1" }
        """},
    "requirements-txt": {"requirements-prod.txt": """
        -r requirements-base.txt
        requests==2.32.3
        Resilint.Runtime==0.1.0  # the fixes' runtime
        """},
    "requirements-directory": {"setup.py": "", "requirements/base.txt": "resilint-runtime\n"},
    "setup-cfg": {"setup.cfg": """
        [metadata]
        name = app

        [options]
        install_requires =
            requests>=2
            resilint-runtime>=0.1
        """},
    "setup-cfg-extras": {"setup.cfg": """
        [options.extras_require]
        prod =
            resilint-runtime
        """},
    "setup-py": {"setup.py": """
        from setuptools import setup

        setup(name="app", install_requires=["requests", "resilint-runtime>=0.1"])
        """},
    "setup-py-extras": {"setup.py": """
        from setuptools import setup

        setup(name="app", extras_require={"prod": ["resilint-runtime"]})
        """},
}


@pytest.mark.parametrize("files", DECLARING.values(), ids=list(DECLARING))
def test_a_declared_runtime_in_any_project_file_picks_the_runtime_target(tmp_path, files):
    _write(tmp_path, files)
    (tmp_path / "app.py").write_text(REQUEST)
    chosen = choose_fix_target(Settings(root=str(tmp_path)), [str(tmp_path / "app.py")])
    assert chosen.name == "runtime", chosen.why
    assert "declares resilint" in chosen.why


NOT_DECLARING = {
    "nothing": {},
    "other-packages": {"pyproject.toml": """
        [project]
        name = "resilint-runtime-demo"
        dependencies = ["resilint-runtime-extras", "not-resilint"]
        """},
    "comments-only": {"requirements.txt": "# resilint-runtime, one day\nrequests\n"},
    "computed-setup-py": {"setup.py": """
        from setuptools import setup

        setup(name="app", install_requires=open("reqs").read().split())
        """},
    "broken-files": {"pyproject.toml": "[project\n", "setup.cfg": "[options\n", "setup.py": "setup(\n"},
    "a-comment-that-names-the-import": {"app_notes.py": "# from resilint.runtime import timeout\n"},
}


@pytest.mark.parametrize("files", NOT_DECLARING.values(), ids=list(NOT_DECLARING))
def test_without_a_declaration_or_an_import_the_target_is_native(tmp_path, files):
    _write(tmp_path, files)
    (tmp_path / "app.py").write_text(REQUEST)
    (tmp_path / ".git").mkdir()  # the search for project files stops at the repository
    chosen = choose_fix_target(Settings(root=str(tmp_path)), [str(tmp_path)])
    assert chosen.name == "native", chosen.why


@pytest.mark.parametrize("statement", [
    "from resilint.runtime import timeout", "import resilint.runtime", "from resilint import runtime",
    "    from resilint.runtime.adapters import session",
])
def test_a_project_that_already_imports_the_runtime_picks_the_runtime_target(tmp_path, statement):
    _write(tmp_path, {"pyproject.toml": '[project]\nname = "app"\n', "src/app/__init__.py": "", "src/app/client.py": REQUEST})
    (tmp_path / "src/app/other.py").write_text(f"def f():\n{statement if statement.startswith(' ') else '    ' + statement}\n")
    chosen = choose_fix_target(Settings(root=str(tmp_path)), [str(tmp_path / "src/app")])
    assert chosen.name == "runtime"
    assert chosen.why.endswith("other.py imports resilint.runtime")
    # only the files checked are read: one file alone that does not import it stays native
    assert choose_fix_target(Settings(root=str(tmp_path)), [str(tmp_path / "src/app/client.py")]).name == "native"


def test_the_project_root_is_found_above_the_paths_as_the_configuration_is(tmp_path):
    _write(tmp_path, {"pyproject.toml": '[project]\nname = "app"\ndependencies = ["resilint-runtime"]\n', "src/app/client.py": REQUEST})
    settings = load_settings([str(tmp_path / "src/app")])
    assert settings.config_path is None  # no [tool.resilint]: the project files are looked for
    assert project_root(settings, [str(tmp_path / "src/app")]) == str(tmp_path)
    assert choose_fix_target(settings, [str(tmp_path / "src/app")]).name == "runtime"
    # with a [tool.resilint] table, its directory is the root
    _write(tmp_path, {"sub/pyproject.toml": "[tool.resilint]\n", "sub/x.py": REQUEST})
    configured = load_settings([str(tmp_path / "sub")])
    assert project_root(configured, [str(tmp_path / "sub")]) == str(tmp_path / "sub")
    assert choose_fix_target(configured, [str(tmp_path / "sub")]).name == "native"


def test_the_setting_wins_over_what_the_project_declares(tmp_path):
    _write(tmp_path, {"pyproject.toml": """
        [project]
        name = "app"
        dependencies = ["resilint-runtime"]

        [tool.resilint]
        fix-target = "native"
        """})
    settings = load_settings([str(tmp_path)])
    assert settings.fix_target == "native"
    assert choose_fix_target(settings, [str(tmp_path)]).name == "native"


def test_a_wrong_fix_target_is_a_clear_error_naming_the_key(tmp_path):
    _write(tmp_path, {"pyproject.toml": '[tool.resilint]\nfix-target = "both"\n'})
    with pytest.raises(ConfigError, match=r"`fix-target` must be one of 'auto', 'native', 'runtime', got str 'both'"):
        load_settings([str(tmp_path)])


@pytest.mark.parametrize(("files", "guaranteed"), [
    ({"pyproject.toml": '[project]\nname = "a"\ndependencies = ["urllib3>=2.0,<3"]\n'}, True),
    ({"pyproject.toml": '[tool.poetry.dependencies]\nurllib3 = "^2.2"\n'}, True),
    ({"requirements.txt": "urllib3==2.2.1\n"}, True),
    ({"requirements.txt": "urllib3~=2.0\n"}, True),
    ({"requirements.txt": "urllib3>=1.26,<3\n"}, False),
    ({"requirements.txt": "urllib3\n"}, False),
    ({"requirements.txt": "urllib3>=2\n", "setup.cfg": "[options]\ninstall_requires =\n    urllib3<2\n"}, False),
    ({"requirements.txt": "requests>=2.31\n"}, None),
])
def test_a_declared_urllib3_constraint_says_whether_version_2_is_guaranteed(tmp_path, files, guaranteed):
    _write(tmp_path, files)
    assert read_dependencies(str(tmp_path)).at_least("urllib3", 2) is guaranteed


@pytest.mark.parametrize(("files", "majors"), [
    ({"requirements.txt": "redis==8.0.0\ndjango-redis>=6.0,<6.1\n"}, {"redis": 8, "django-redis": 6}),
    ({"requirements.txt": "redis>=7.4,<9\n"}, {"redis": 7}),
    ({"requirements.txt": "redis\n"}, {}),
    # one declaration without a lower bound leaves the version open
    ({"requirements.txt": "redis>=8\n", "setup.cfg": "[options]\ninstall_requires =\n    redis\n"}, {}),
    ({"requirements.txt": "redis>=8\n", "pyproject.toml": '[project]\nname = "a"\ndependencies = ["redis~=7.0"]\n'}, {"redis": 7}),
])
def test_the_oldest_declared_major_version_of_each_distribution(tmp_path, files, majors):
    _write(tmp_path, files)
    assert read_dependencies(str(tmp_path)).lowest_majors() == majors


def test_a_redis_client_is_judged_by_the_redis_py_version_the_project_declares(cli, tmp_path):
    # redis-py 8 waits at most 5 s by default; older versions wait forever
    _write(tmp_path, {
        "app.py": 'import redis\nr = redis.Redis(host="cache")\n',
        "settings.py": 'CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": "redis://cache:6379/1"}}\n',
        "requirements.txt": "redis==8.0.0\n",
    })
    assert cli(["check", "app.py", "settings.py"], tmp_path).exit_code == 0
    (tmp_path / "requirements.txt").write_text("redis>=7,<9\n")
    result = cli(["check", "app.py", "settings.py", "--format", "concise"], tmp_path)  # the cache written for redis 8 is not reused
    assert result.exit_code == 1 and result.output.count("redis-py before 8 waits forever") == 2, result.output


def test_a_redis_client_made_by_a_helper_of_another_module_is_judged_by_the_declared_version(cli, tmp_path):
    # the project pass judges what another module's factory makes: by the same declared versions
    _write(tmp_path, {
        "clients.py": 'import redis\n\n\ndef get_client(**kwargs):\n    return redis.Redis(**kwargs)\n',
        "app.py": 'from clients import get_client\n\nr = get_client(host="cache")\n',
        "requirements.txt": "redis==8.0.0\n",
    })
    assert cli(["check", "."], tmp_path).exit_code == 0
    (tmp_path / "requirements.txt").write_text("redis>=7,<9\n")
    result = cli(["check", ".", "--format", "concise"], tmp_path)
    assert result.exit_code == 1 and "redis-py before 8 waits forever" in result.output, result.output


OWN_VERSIONS = {
    "static": ({"pyproject.toml": """
        [project]
        name = "redis"
        version = "8.0.0"
        """}, 8),
    "hatch-path": ({
        "pyproject.toml": """
            [project]
            name = "redis"
            dynamic = ["version"]

            [tool.hatch.version]
            path = "redis/__init__.py"
            """,
        "redis/__init__.py": '__version__ = "8.0.0"\n',
    }, 8),
    "setuptools-attr": ({
        "pyproject.toml": """
            [project]
            name = "redis"
            dynamic = ["version"]

            [tool.setuptools.dynamic]
            version = {attr = "redis.__version__"}
            """,
        "redis/__init__.py": '__version__: str = "7.4.0"\n',
    }, 7),
    "unreadable": ({"pyproject.toml": """
        [project]
        name = "redis"
        dynamic = ["version"]
        """}, None),
}


@pytest.mark.parametrize("files,major", list(OWN_VERSIONS.values()), ids=list(OWN_VERSIONS))
def test_a_project_is_its_own_distribution_at_the_version_it_says(tmp_path, files, major):
    _write(tmp_path, files)
    assert read_dependencies(str(tmp_path)).lowest_majors().get("redis") == major


def test_the_project_itself_is_no_declared_runtime(tmp_path):
    _write(tmp_path, {"pyproject.toml": """
        [project]
        name = "resilint"
        version = "0.1.0"
        """})
    assert read_dependencies(str(tmp_path)).declares_runtime() is None
