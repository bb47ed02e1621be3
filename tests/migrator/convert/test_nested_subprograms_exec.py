"""Nested subprograms run on PostgreSQL as they run in Oracle (issue #29.4): overloads of one name
and arity, forward declarations with mutual recursion, recursion with IN OUT accumulators, and
arguments whose type differs from the parameter's.

PL/SQL Language Reference: "Forward Declaration" (a nested subprogram declared before its body,
whose heading the body repeats), "Overloaded Subprograms" (subprograms of one name whose formal
parameters differ in number, order or data type family, e.g. DATE and NUMBER; "Formal Parameters
that Differ Only in Numeric Data Type": PLS_INTEGER before NUMBER), "Subprogram Parameters" → IN
OUT (the actual parameter's value on return). A NUMBER passed to a PLS_INTEGER parameter is
rounded ("PLS_INTEGER and BINARY_INTEGER Data Types").

Rule ``plsql.nested_overload`` keeps every overload; switched off, the nested routines of one name
and arity collapse into one and the call is refused (the last test).
"""

from __future__ import annotations

import psycopg

from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.reader import read_schema_dir
from tests.migrator.convert.test_plsql_exec_types import deploy_schema

NESTED = """
CREATE OR REPLACE FUNCTION nested_mix (p_n IN NUMBER, p_when IN DATE) RETURN VARCHAR2 IS
    v_acc   NUMBER := 0;
    v_path  VARCHAR2(200);
    FUNCTION is_even (n PLS_INTEGER) RETURN BOOLEAN;
    FUNCTION is_odd (n PLS_INTEGER) RETURN BOOLEAN IS
    BEGIN
        IF n = 0 THEN RETURN FALSE; END IF;
        RETURN is_even(n - 1);
    END;
    FUNCTION is_even (n PLS_INTEGER) RETURN BOOLEAN IS
    BEGIN
        IF n = 0 THEN RETURN TRUE; END IF;
        RETURN is_odd(n - 1);
    END;
    PROCEDURE walk (n IN NUMBER, acc IN OUT NUMBER, path IN OUT VARCHAR2) IS
    BEGIN
        IF n > 0 THEN
            acc := acc + n;
            path := path || n || '>';
            walk(n - 1, acc, path);
        END IF;
    END;
    FUNCTION kind (x PLS_INTEGER) RETURN VARCHAR2 IS BEGIN RETURN 'pls:' || x; END;
    FUNCTION kind (x VARCHAR2) RETURN VARCHAR2 IS BEGIN RETURN 'str:' || x; END;
    FUNCTION kind (x DATE) RETURN VARCHAR2 IS BEGIN RETURN 'date:' || TO_CHAR(x, 'YYYY-MM-DD HH24:MI'); END;
BEGIN
    walk(TRUNC(p_n), v_acc, v_path);
    RETURN v_acc || '|' || v_path || '|'
        || CASE WHEN is_even(TRUNC(p_n)) THEN 'even' ELSE 'odd' END || '|'
        || kind(p_n) || '|' || kind('x' || p_n) || '|' || kind(p_when);
END;
/
"""


def test_nested_overloads_forward_declarations_and_accumulators(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "nested", {"nested.sql": NESTED})
        got = conn.execute("SELECT nested_mix(7.5, TIMESTAMP '2024-02-29 13:14:15')").fetchone()[0]
        # 7+6+...+1 = 28; 7 is odd; 7.5 → PLS_INTEGER 8 (rounded); the VARCHAR2 and DATE overloads
        assert got == "28|7>6>5>4>3>2>1>|odd|pls:8|str:x7.5|date:2024-02-29 13:14"
        assert conn.execute("SELECT nested_mix(4, NULL)").fetchone()[0] == "10|4>3>2>1>|even|pls:4|str:x4|date:"


def test_with_the_rule_off_the_overloads_collapse_and_the_call_is_refused(tmp_path):
    folder = tmp_path / "off"
    folder.mkdir()
    (folder / "nested.sql").write_text(NESTED, encoding="utf-8")
    source = read_schema_dir(folder)
    ctx = prepare_context(source, disabled_rules=frozenset({"plsql.nested_overload"}))
    conversion = convert_unit(source.units[0], ctx)
    assert conversion.unconverted, conversion.output


# A nested function that writes the enclosing routine's variables (a reader advancing a position
# and a counter), called from an assignment, a WHILE loop's body, without parentheses, twice in
# one expression through another nested function, and the written variables read after the call
# in the same expression. PL/SQL Language Reference, "Nested, Package, and Standalone
# Subprograms": a nested subprogram sees and changes the enclosing block's variables.
READER = """
CREATE OR REPLACE FUNCTION read_codes (p_data IN VARCHAR2, p_width IN PLS_INTEGER) RETURN VARCHAR2 IS
  l_pos PLS_INTEGER := 0;
  l_taken PLS_INTEGER := 0;
  l_out VARCHAR2(4000);
  l_code VARCHAR2(100);
  FUNCTION next_code RETURN VARCHAR2 IS
    l_piece VARCHAR2(100);
  BEGIN
    IF l_pos >= LENGTH(p_data) THEN
      RETURN NULL;
    END IF;
    l_piece := SUBSTR(p_data, l_pos + 1, p_width);
    l_pos := l_pos + p_width;
    l_taken := l_taken + 1;
    RETURN l_piece;
  END next_code;
  FUNCTION two_codes RETURN VARCHAR2 IS
  BEGIN
    RETURN next_code || '+' || next_code;
  END two_codes;
BEGIN
  l_code := next_code();
  WHILE l_code IS NOT NULL LOOP
    l_out := l_out || '[' || l_code || ']';
    l_code := next_code;
  END LOOP;
  l_pos := 0;
  l_out := l_out || ' ' || two_codes || ' taken=' || l_taken || ' pos=' || l_pos;
  RETURN l_out;
END read_codes;
/
CREATE OR REPLACE FUNCTION first_or_none (p_data IN VARCHAR2) RETURN VARCHAR2 IS
  l_pos PLS_INTEGER := 0;
  FUNCTION step RETURN VARCHAR2 IS
  BEGIN
    l_pos := l_pos + 1;
    RETURN SUBSTR(p_data, l_pos, 1);
  END step;
BEGIN
  RETURN NVL(p_data, 'none') || ':' || CASE WHEN p_data IS NULL THEN 'x' ELSE step END;
END first_or_none;
/
"""


def test_nested_functions_that_write_the_enclosing_variables(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(
            conn, tmp_path / "reader", {"reader.sql": READER.split("CREATE OR REPLACE FUNCTION first_or_none")[0]}
        )
        got = conn.execute("SELECT read_codes('abcdefg', 3)").fetchone()[0]
        # three codes (the fourth call finds the end: nothing changes), then two more from 0
        assert got == "[abc][def][g] abc+def taken=5 pos=6"
        # LENGTH(NULL) is NULL: the end test is never true, every call advances and returns NULL
        assert conn.execute("SELECT read_codes(NULL, 2)").fetchone()[0] == " + taken=3 pos=4"


def test_a_writing_nested_function_in_a_conditional_operand_is_reported(tmp_path):
    folder = tmp_path / "cond"
    folder.mkdir()
    (folder / "reader.sql").write_text(READER, encoding="utf-8")
    source = read_schema_dir(folder)
    ctx = prepare_context(source)
    unit = next(u for u in source.units if u.name.lower() == "first_or_none")
    conversion = convert_unit(unit, ctx)
    assert [u.construct for u in conversion.unconverted] == ["nested subprogram"], conversion.output
    assert "only on some paths" in conversion.unconverted[0].message
