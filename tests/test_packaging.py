"""The distribution lists exactly the import packages that exist on disk."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _packages_on_disk() -> set[str]:
    found = set()
    for top in ("migrator", "harness", "knowledge_base"):
        for init in (ROOT / top).rglob("__init__.py"):
            found.add(".".join(init.parent.relative_to(ROOT).parts))
    return found


def test_package_list_matches_folders():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    assert listed == _packages_on_disk()


def test_no_python_package_without_init():
    # A folder of .py files without __init__.py would silently be left out of the wheel.
    for top in ("migrator", "harness", "knowledge_base"):
        for py in (ROOT / top).rglob("*.py"):
            assert (py.parent / "__init__.py").exists(), py


def test_layering_harness_and_kb_do_not_import_migrator():
    for top, forbidden in (("harness", ("migrator", "knowledge_base")), ("knowledge_base", ("migrator", "harness"))):
        for py in (ROOT / top).rglob("*.py"):
            text = py.read_text()
            for name in forbidden:
                assert f"from {name}" not in text and f"import {name}" not in text, f"{py} imports {name}"


def test_console_entry_point():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["migrator"] == "migrator.cli.main:main"
