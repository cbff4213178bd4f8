"""Configuration loading, validation and rule selection."""

from __future__ import annotations

import pytest

from resilint.lint.config import ConfigError, Settings, enabled_codes, load_settings
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
        ("per-file-ignores = ['x']", "`per-file-ignores` must be a table"),
        ("respect-gitignore = 1", "`respect-gitignore` must be true or false"),
        ("redis-url-timeouts = 'yes'", "`redis-url-timeouts` must be true or false"),
        ("select = [", "invalid TOML"),
        ("extend-clients = ['get']", "`extend-clients` takes qualified names such as \"myapp.http.get\", got 'get'"),
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
