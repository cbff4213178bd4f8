"""The catalog read from the sources, without importing them, says what the imported rule and
codemod classes say, field by field; where it cannot read a declaration it says so."""

from __future__ import annotations

import textwrap

import pytest

from resilint.codemods import all_codemods
from resilint.lint import catalog
from resilint.lint.catalog import codemod_catalog, rule_catalog
from resilint.lint.registry import all_rules


def test_every_rule_is_read_as_the_registry_imports_it():
    rules = all_rules()
    read = rule_catalog()
    assert list(read) == list(rules)
    for code, rule in rules.items():
        info = read[code]
        assert (info.code, info.name, info.default, info.severity, info.fixable, info.message, info.always_reported) == (
            rule.code, rule.name, rule.default, rule.severity, rule.fixable, getattr(rule, "message", ""),
            rule.always_reported,
        ), code
        assert info.documentation() == rule.documentation()
        assert info.sections() == rule.sections()
        assert info.summary() == rule.summary()
        assert info.metadata() == rule.metadata()


def test_every_codemod_is_read_as_discovery_imports_it():
    codemods = all_codemods()
    read = codemod_catalog()
    assert list(read) == list(codemods)
    for name, codemod in codemods.items():
        assert (read[name].codes, read[name].applicability, read[name].description) == (
            tuple(codemod.CODES), codemod.APPLICABILITY, codemod.DESCRIPTION,
        ), name


def test_without_the_sources_the_catalog_imports_and_says_the_same():
    assert catalog._imported_rules() == rule_catalog()
    assert catalog._imported_codemods() == codemod_catalog()


def test_a_declaration_that_is_not_a_literal_is_an_error_naming_it(tmp_path):
    package = tmp_path / "rules"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "odd.py").write_text(textwrap.dedent('''\
        from resilint.lint.rule import Rule

        class Base(Rule):
            severity = "error"

        class Odd(Base):
            """Odd."""
            code = "RES990"
            name = NAME
        '''))
    declared = catalog._declared_classes(str(package), recursive=True)
    assert declared is not None
    classes = declared["rules.odd"]
    assert catalog._inherits("Odd", "Rule", classes, declared)
    assert catalog._attribute("Odd", "severity", classes, declared, {}) == "error"
    assert catalog._attribute("Odd", "code", classes, declared, {}) == "RES990"
    with pytest.raises(RuntimeError, match="Odd.name must be a literal"):
        catalog._attribute("Odd", "name", classes, declared, {})
