"""Overloads that differ only in their parameters' names (PL/SQL Language Reference, "Overloaded
Subprograms": formal parameters that differ only in name are allowed, and only a call in named
notation can reach them): both converted, deployed side by side, and each named call reaching the
one Oracle binds it to; a positional call is refused as Oracle refuses it (PLS-00307)."""

from __future__ import annotations

import psycopg

from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.reader import read_schema_dir
from tests.migrator.convert.test_plsql_exec_types import deploy_schema

NAMES = """
CREATE OR REPLACE PACKAGE names_pkg AS
  FUNCTION label (p_schema IN VARCHAR2) RETURN VARCHAR2;
  FUNCTION label (p_package IN VARCHAR2) RETURN VARCHAR2;
  PROCEDURE show (p_schema IN VARCHAR2);
  PROCEDURE show (p_package IN VARCHAR2);
END names_pkg;
/
CREATE OR REPLACE PACKAGE BODY names_pkg AS
  FUNCTION label (p_schema IN VARCHAR2) RETURN VARCHAR2 IS
  BEGIN
    RETURN 'schema ' || p_schema;
  END label;
  FUNCTION label (p_package IN VARCHAR2) RETURN VARCHAR2 IS
  BEGIN
    RETURN 'package of ' || label(p_schema => UPPER(p_package));
  END label;
  PROCEDURE show (p_schema IN VARCHAR2) IS
  BEGIN
    DBMS_OUTPUT.PUT_LINE('S:' || label(p_schema => p_schema));
  END show;
  PROCEDURE show (p_package IN VARCHAR2) IS
  BEGIN
    DBMS_OUTPUT.PUT_LINE('P:' || label(p_package => p_package));
  END show;
END names_pkg;
/
CREATE OR REPLACE FUNCTION use_names (p_x IN VARCHAR2) RETURN VARCHAR2 IS
BEGIN
  names_pkg.show(p_package => p_x);
  names_pkg.show(p_schema => p_x);
  RETURN names_pkg.label(p_schema => p_x) || '/' || names_pkg.label(p_package => p_x);
END use_names;
/
"""


def test_overloads_told_apart_by_parameter_names(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "names", {"names.sql": NAMES})
        got: list[str] = []
        conn.add_notice_handler(lambda d: got.append(d.message_primary))
        assert conn.execute("SELECT use_names('ab')").fetchone()[0] == "schema ab/package of schema AB"
        assert got == ["P:package of schema AB", "S:schema ab"]


def test_a_positional_call_of_such_overloads_is_refused_as_in_oracle(tmp_path):
    folder = tmp_path / "pos"
    folder.mkdir()
    positional = "CREATE OR REPLACE FUNCTION pos (p_x IN VARCHAR2) RETURN VARCHAR2 IS\nBEGIN\n  RETURN names_pkg.label(p_x);\nEND pos;\n/\n"
    (folder / "names.sql").write_text(NAMES + positional, encoding="utf-8")
    source = read_schema_dir(folder)
    ctx = prepare_context(source)
    unit = next(u for u in source.units if u.name == "pos")
    conversion = convert_unit(unit, ctx)
    assert [(u.construct, u.message) for u in conversion.unconverted] == [
        ("call of a converted routine", "names_pkg.label: 2 signatures fit equally")
    ]
