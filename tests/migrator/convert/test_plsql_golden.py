"""Golden files for the PL/SQL converter: tests/golden/plsql/<case>.ora.sql → <case>.pg.sql.

Each output must also parse with pglast (statements, and every function body as PL/pgSQL)."""

from __future__ import annotations

import pglast
import pytest

from tests.golden import assert_golden, golden_cases
from tests.migrator.plsql_support import convert_all, make_unit

SPEC = """CREATE OR REPLACE PACKAGE counter_pkg AS
  c_step CONSTANT PLS_INTEGER := 2;
  g_count PLS_INTEGER := 0;
  FUNCTION next_val RETURN PLS_INTEGER;
  PROCEDURE reset;
END counter_pkg"""
TABLE = "CREATE TABLE emp (id NUMBER(10), name VARCHAR2(40), salary NUMBER(10,2), dept NUMBER(5))"


def check_parses(sql: str) -> None:
    data = sql.encode()
    for stmt in pglast.parse_sql(sql):
        if type(stmt.stmt).__name__ == "CreateFunctionStmt":
            start = stmt.stmt_location
            text = data[start : start + stmt.stmt_len].decode() if stmt.stmt_len else data[start:].decode()
            pglast.parse_plpgsql(text)


@pytest.mark.parametrize("name,src,expected", golden_cases("plsql"), ids=lambda v: v if isinstance(v, str) else "")
def test_plsql_golden(name, src, expected):
    units = [make_unit(TABLE, n=1), make_unit(SPEC, n=2), make_unit(src.read_text(encoding="utf-8"), n=3)]
    results = convert_all(units)
    unit, text, unconverted, applied, notes = results[-1]
    header = f"-- rules: {', '.join(applied)}\n"
    if unconverted:
        header += "".join(f"-- unconverted: {u.construct}: {u.message}\n" for u in unconverted)
    assert_golden(header + text, expected)
    check_parses(text)
