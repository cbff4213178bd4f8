"""Configuration loading, validation and rule selection."""

from __future__ import annotations

import os

import pytest

from resilint.lint import config
from resilint.lint.config import ConfigError, Settings, enabled_codes, is_test_code, load_settings
from resilint.lint.registry import all_rules

from tests.conftest import write_tree

RULES = all_rules()


def test_nearest_pyproject_with_a_resilint_table_wins(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": "[tool.resilint]\nmax-timeout = 10\n",
        "pkg/pyproject.toml": "[project]\nname = 'pkg'\n",  # no table: keep looking upward
        "pkg/sub/a.py": "",
    })
    settings = load_settings([str(tmp_path / "pkg" / "sub")])
    assert settings.max_timeout == 10.0
    assert settings.config_path == str(tmp_path / "pyproject.toml")


def test_no_configuration_gives_defaults(tmp_path):
    (tmp_path / "a.py").write_text("")
    assert load_settings([str(tmp_path)]).max_timeout == Settings().max_timeout


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ("selct = ['RES1']", "unknown key `selct` in [tool.resilint] (did you mean `select`?)"),
        ("select = 'RES1'", "`select` must be a list of strings, got str 'RES1'"),
        ("max-timeout = 'slow'", "`max-timeout` must be a positive number of seconds"),
        ("max-timeout = -1", "`max-timeout` must be a positive number of seconds"),
        ("max-timeout = nan", "`max-timeout` must be a positive number of seconds, got float nan"),
        ("max-timeout = inf", "`max-timeout` must be a positive number of seconds, got float inf"),
        ("max-timeout = -inf", "`max-timeout` must be a positive number of seconds, got float -inf"),
        ("max-timeout = true", "`max-timeout` must be a positive number of seconds, got bool True"),
        ("max-timeout = 0", "`max-timeout` must be a positive number of seconds, got int 0"),
        pytest.param("x = " + "[" * 5000 + "]" * 5000, "invalid TOML: nested too deeply to read", id="deeply-nested"),
        ("per-file-ignores = ['x']", "`per-file-ignores` must be a table"),
        ("respect-gitignore = 1", "`respect-gitignore` must be true or false"),
        ("redis-url-timeouts = 'yes'", "`redis-url-timeouts` must be true or false"),
        ("test-code = 'tests/*'", "`test-code` must be a list of strings, got str 'tests/*'"),
        ("select = [", "invalid TOML"),
        ("extend-clients = ['get']", "`extend-clients` takes qualified names such as \"myapp.http.get\", got 'get'"),
        ("fix-timeout = 5", "`fix-timeout` must be a table such as { connect = 3.05, read = 10 }, got int 5"),
        ("fix-timeout = { connect = 0 }", "`fix-timeout.connect` must be a positive number of seconds, got int 0"),
        ("fix-timeout = { read = inf }", "`fix-timeout.read` must be a positive number of seconds, got float inf"),
        ("fix-timeout = { write = 1 }", "unknown key `fix-timeout.write`; `fix-timeout` takes `connect` and `read`"),
    ],
)
def test_bad_configuration_names_the_key_and_the_file(tmp_path, toml, expected):
    path = tmp_path / "pyproject.toml"
    path.write_text(f"[tool.resilint]\n{toml}\n")
    with pytest.raises(ConfigError) as error:
        load_settings([str(tmp_path)])
    assert str(path) in str(error.value)
    assert expected in str(error.value)


def test_explicit_config_must_exist_and_have_the_table(tmp_path):
    with pytest.raises(ConfigError, match="configuration file not found"):
        load_settings(["."], config=str(tmp_path / "missing.toml"))
    (tmp_path / "other.toml").write_text("[tool.other]\n")
    with pytest.raises(ConfigError, match="has no \\[tool.resilint\\] table"):
        load_settings(["."], config=str(tmp_path / "other.toml"))


def codes(**kwargs):
    return set(enabled_codes(Settings(**kwargs), RULES))


def test_defaults_leave_opt_in_rules_off():
    assert "RES101" in codes()
    assert "RES001" not in codes()


def test_explicit_selection_enables_opt_in_rules_it_covers():
    assert "RES001" in codes(select=("RES0",))
    assert "RES101" not in codes(select=("RES0",))
    assert codes(select=("ALL",)) == set(RULES)


def test_most_specific_selector_wins():
    assert "RES101" not in codes(ignore=("RES1",))
    assert "RES101" in codes(ignore=("RES1",), extend_select=("RES101",))
    assert "RES102" not in codes(ignore=("RES1",), extend_select=("RES101",))
    assert "RES001" in codes(extend_select=("RES001",))


@pytest.mark.parametrize(
    "toml",
    [
        "[ tool.resilint ]\nmax-timeout = 10\n",
        "[tool . resilint]\nmax-timeout = 10\n",
        "[ \"tool\" . 'resilint' ]\nmax-timeout = 10\n",
        "tool.resilint.max-timeout = 10\n",
        "[tool]\nresilint.max-timeout = 10\n",
        "[tool]\nresilint = { max-timeout = 10 }\n",
    ],
    ids=["spaces", "spaced-dot", "quoted", "dotted-key", "dotted-in-tool", "inline-table"],
)
def test_the_table_is_found_however_toml_spells_it(tmp_path, toml):
    write_tree(tmp_path, {"pyproject.toml": toml, "a.py": ""})
    settings = load_settings([str(tmp_path / "a.py")])
    assert settings.max_timeout == 10.0
    assert settings.config_path == str(tmp_path / "pyproject.toml")


def test_a_mention_of_the_table_is_not_the_table(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": "[tool.resilint]\nmax-timeout = 10\n",
        "pkg/pyproject.toml": "[project]\nname = 'pkg'\ndescription = 'configure [tool.resilint] above'\n",
        "pkg/a.py": "",
    })
    settings = load_settings([str(tmp_path / "pkg" / "a.py")])
    assert settings.max_timeout == 10.0


def test_each_candidate_is_parsed_once(tmp_path, monkeypatch):
    write_tree(tmp_path, {
        "pyproject.toml": "[tool.resilint]\nmax-timeout = 10\n",
        "pkg/pyproject.toml": "[project]\nname = 'pkg'\n",
        "pkg/sub/pyproject.toml": "[tool.other]\nx = 1\n",
        "pkg/sub/a.py": "",
    })
    parsed = []
    config._PARSED.clear()
    real = config.tomllib.loads
    monkeypatch.setattr(config.tomllib, "loads", lambda text: parsed.append(text) or real(text))
    assert load_settings([str(tmp_path / "pkg" / "sub" / "a.py")]).max_timeout == 10.0
    assert len(parsed) == 3


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"[tool.resilint]\nignore = ['RES102'] # caf\xe9\n", "invalid TOML: byte b'\\xe9' on line 2 is not UTF-8"),
        (b"[tool.resilint]\nx = " + b"[" * 5000 + b"]" * 5000 + b"\n", "invalid TOML: nested too deeply to read"),
        (b"[tool.other]\nx = [\n", "invalid TOML"),  # on the way up: it may be the one meant for us
    ],
    ids=["not-utf8", "deeply-nested", "broken-other-table"],
)
def test_a_pyproject_that_is_not_toml_is_one_line_naming_the_file(cli, tmp_path, content, expected):
    (tmp_path / "pyproject.toml").write_bytes(content)
    (tmp_path / "a.py").write_text("import requests\nrequests.get(u)\n")
    result = cli(["check", "a.py"], tmp_path)
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"resilint: error: {tmp_path / 'pyproject.toml'}: ") and expected in line


def test_a_config_file_that_is_not_a_regular_file_is_not_opened(tmp_path):
    os.mkfifo(tmp_path / "fifo.toml")
    with pytest.raises(ConfigError, match="fifo.toml: cannot be read: not a regular file"):
        load_settings(["."], config=str(tmp_path / "fifo.toml"))


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('ignore = [""]', "`ignore`: empty rule selector"),
        ('select = [""]', "`select`: empty rule selector"),
        ('extend-select = ["RES101", ""]', "`extend-select`: empty rule selector"),
        ('per-file-ignores = {"a.py" = ["RES9"]}', '`per-file-ignores` "a.py": unknown rule selector `RES9`'),
        ('per-file-ignores = {"a.py" = [""]}', '`per-file-ignores` "a.py": empty rule selector'),
        ('ignore = ["RES000"]', "`ignore`: `RES000` cannot be ignored: a file that cannot be analysed is always reported"),
        ('per-file-ignores = {"gen/*" = ["RES000"]}', '`per-file-ignores` "gen/*": `RES000` cannot be ignored'),
    ],
)
def test_selectors_that_would_not_do_what_they_say_are_refused(cli, tmp_path, table, expected):
    (tmp_path / "pyproject.toml").write_text(f"[tool.resilint]\n{table}\n")
    (tmp_path / "a.py").write_text("import requests\nrequests.get(u)\n")
    result = cli(["check", "a.py"], tmp_path)
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"resilint: error: {tmp_path / 'pyproject.toml'}: {expected}")


def test_fix_timeout_defaults_to_the_runtime_defaults_and_may_set_either_phase(tmp_path):
    from resilint.runtime.timeouts import DEFAULT_CONNECT, DEFAULT_READ

    assert Settings().fix_timeout == (DEFAULT_CONNECT, DEFAULT_READ)
    (tmp_path / "pyproject.toml").write_text("[tool.resilint]\nfix-timeout = { read = 4 }\n")
    assert load_settings([str(tmp_path)]).fix_timeout == (DEFAULT_CONNECT, 4.0)


@pytest.mark.parametrize("path, tests", [
    ("opensearchpy/helpers/test.py", True),  # a package's test helpers (opensearch-py)
    ("app/tests.py", True),
    ("app/views.py", False),
    ("app/contest.py", False),
])
def test_the_default_test_code_knows_test_helper_modules(path, tests):
    assert is_test_code(path, Settings()) is tests
