"""Golden-file helpers: `<case>.ora.sql` in, `<case>.pg.sql` expected out, side by side.

Set UPDATE_GOLDEN=1 to (re)write expected files from the current output; review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN_ROOT = Path(__file__).parent / "golden"


def golden_cases(family: str) -> list[tuple[str, Path, Path]]:
    folder = GOLDEN_ROOT / family
    cases = []
    for src in sorted(folder.glob("*.ora.sql")):
        name = src.name[: -len(".ora.sql")]
        cases.append((name, src, src.with_name(f"{name}.pg.sql")))
    return cases


def assert_golden(actual: str, expected_path: Path) -> None:
    actual = actual.rstrip() + "\n"
    if os.environ.get("UPDATE_GOLDEN") == "1" or not expected_path.exists():
        expected_path.write_text(actual, encoding="utf-8")
        if os.environ.get("UPDATE_GOLDEN") != "1":
            raise AssertionError(f"golden file {expected_path} was missing; written — review it and rerun")
        return
    expected = expected_path.read_text(encoding="utf-8")
    assert actual == expected, (
        f"output differs from {expected_path.name}:\n--- expected\n{expected}\n--- actual\n{actual}"
    )


def convert_case(family: str, name: str, disabled: frozenset[str] = frozenset()) -> tuple[str, list[str]]:
    """A golden case converted as its family's golden test converts it (optionally with rules
    switched off): (output, rule ids applied)."""
    text = (GOLDEN_ROOT / family / f"{name}.ora.sql").read_text(encoding="utf-8")
    if family == "sql":
        from migrator.convert.sql.convert import convert_statement
        from tests.migrator.sql_catalog import make_ctx

        ctx = make_ctx(disabled)
        return convert_statement(text.strip(), ctx), list(ctx.applied_rules)
    if family in ("ddl", "data"):
        from tests.migrator.ddl_support import convert_golden_case

        out, ctx = convert_golden_case(name, text, disabled)
        return out, list(ctx.applied_rules)
    if family == "plsql":
        from tests.migrator.plsql_support import convert_golden_case as convert_plsql_case

        _, out, _, applied, _ = convert_plsql_case(text, disabled)
        return out, applied
    raise ValueError(f"no golden family {family!r}")
