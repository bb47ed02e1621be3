"""Functions that return a value and set OUT / IN OUT parameters (rule plsql.function_out_params),
run on a real PostgreSQL: the converted function returns its OUT parameters and its value as a
row, and every call site is rewritten — assignment, inside an expression, nested in another
call, as an IF / ELSIF / WHILE condition, across packages and within one, named notation and
defaults, IN OUT values carried in and modified, OUT targets that are package variables or
collection elements, an overload with OUT parameters beside one without — while procedures with
OUT parameters keep their CALL. Oracle refuses such a function in SQL (ORA-06572): so does the
conversion, with that reason."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.reader import read_schema_dir
from tests.migrator.convert.test_plsql_exec_types import deploy_schema

NUM_UTIL = """CREATE OR REPLACE PACKAGE num_util AS
  g_calls NUMBER := 0;
  FUNCTION split_amount (p_total IN NUMBER, p_parts IN PLS_INTEGER, p_rest OUT NUMBER) RETURN NUMBER;
  FUNCTION bump (p_counter IN OUT NUMBER, p_step IN NUMBER DEFAULT 1) RETURN VARCHAR2;
  FUNCTION parse (p_text IN VARCHAR2, p_value OUT NUMBER) RETURN BOOLEAN;
  FUNCTION describe (p_n IN NUMBER) RETURN VARCHAR2;
  FUNCTION describe (p_n IN NUMBER, p_width IN PLS_INTEGER, p_len OUT NUMBER) RETURN VARCHAR2;
  FUNCTION twice (p_n IN NUMBER) RETURN NUMBER;
  PROCEDURE fill (p_a OUT NUMBER, p_b IN OUT VARCHAR2);
END num_util;
/
CREATE OR REPLACE PACKAGE BODY num_util AS
  FUNCTION split_amount (p_total IN NUMBER, p_parts IN PLS_INTEGER, p_rest OUT NUMBER) RETURN NUMBER IS
    l_each NUMBER;
  BEGIN
    g_calls := g_calls + 1;
    l_each := TRUNC(p_total / p_parts);
    p_rest := p_total - l_each * p_parts;
    RETURN l_each;
  END split_amount;

  FUNCTION bump (p_counter IN OUT NUMBER, p_step IN NUMBER DEFAULT 1) RETURN VARCHAR2 IS
  BEGIN
    p_counter := p_counter + p_step;
    RETURN 'now ' || p_counter;
  END bump;

  FUNCTION parse (p_text IN VARCHAR2, p_value OUT NUMBER) RETURN BOOLEAN IS
  BEGIN
    p_value := TO_NUMBER(p_text);
    RETURN TRUE;
  EXCEPTION
    WHEN VALUE_ERROR THEN
      p_value := NULL;
      RETURN FALSE;
  END parse;

  FUNCTION describe (p_n IN NUMBER) RETURN VARCHAR2 IS
  BEGIN
    RETURN 'n=' || p_n;
  END describe;

  FUNCTION describe (p_n IN NUMBER, p_width IN PLS_INTEGER, p_len OUT NUMBER) RETURN VARCHAR2 IS
    l_text VARCHAR2(100) := LPAD(describe(p_n), p_width);
  BEGIN
    p_len := LENGTH(l_text);
    RETURN l_text;
  END describe;

  FUNCTION twice (p_n IN NUMBER) RETURN NUMBER IS
  BEGIN
    RETURN p_n * 2;
  END twice;

  PROCEDURE fill (p_a OUT NUMBER, p_b IN OUT VARCHAR2) IS
  BEGIN
    p_a := 42;
    p_b := p_b || '!';
  END fill;
END num_util;
/"""

CALLER = """CREATE OR REPLACE PACKAGE caller AS
  g_rest NUMBER;
  PROCEDURE run;
END caller;
/
CREATE OR REPLACE PACKAGE BODY caller AS
  FUNCTION local_div (p_a IN NUMBER, p_b IN NUMBER, p_mod OUT NUMBER) RETURN NUMBER IS
  BEGIN
    p_mod := MOD(p_a, p_b);
    RETURN TRUNC(p_a / p_b);
  END local_div;

  PROCEDURE run IS
    l_each  NUMBER;
    l_rest  NUMBER;
    l_cnt   NUMBER := 10;
    l_val   NUMBER;
    l_len   NUMBER;
    l_text  VARCHAR2(100);
    l_a     NUMBER;
    l_b     VARCHAR2(20) := 'hi';
    l_i     PLS_INTEGER := 0;
    TYPE t_nums IS TABLE OF NUMBER INDEX BY PLS_INTEGER;
    l_arr   t_nums;
  BEGIN
    -- assignment
    l_each := num_util.split_amount(100, 3, l_rest);
    DBMS_OUTPUT.PUT_LINE('each=' || l_each || ' rest=' || l_rest);
    -- inside an expression and nested in another call
    l_val := num_util.twice(num_util.split_amount(10, 4, l_rest) + 1) * 10;
    DBMS_OUTPUT.PUT_LINE('val=' || l_val || ' rest=' || l_rest);
    -- IN OUT carried in and modified, named notation, default left out
    l_text := num_util.bump(p_counter => l_cnt);
    DBMS_OUTPUT.PUT_LINE(l_text || ' cnt=' || l_cnt);
    l_text := num_util.bump(l_cnt, p_step => 5);
    DBMS_OUTPUT.PUT_LINE(l_text || ' cnt=' || l_cnt);
    -- as a condition
    IF num_util.parse('12.5', l_val) THEN
      DBMS_OUTPUT.PUT_LINE('parsed ' || l_val);
    END IF;
    IF l_cnt < 0 THEN
      DBMS_OUTPUT.PUT_LINE('never');
    ELSIF NOT num_util.parse('x1', l_val) THEN
      DBMS_OUTPUT.PUT_LINE('not a number, val=' || NVL(TO_CHAR(l_val), 'null'));
    ELSE
      DBMS_OUTPUT.PUT_LINE('never');
    END IF;
    -- overloads: one with an OUT parameter, one without
    DBMS_OUTPUT.PUT_LINE(num_util.describe(7) || ' / ' || num_util.describe(12345, 9, l_len) || ' len=' || l_len);
    -- a package variable and a collection element as OUT targets
    l_each := num_util.split_amount(7, 2, g_rest);
    l_arr(3) := 0;
    l_each := num_util.split_amount(9, 4, l_arr(3));
    DBMS_OUTPUT.PUT_LINE('g_rest=' || g_rest || ' arr3=' || l_arr(3));
    -- a local function of the package, in a WHILE condition evaluated at each iteration
    l_cnt := 0;
    WHILE local_div(17, 5 - l_i, l_rest) < 5 LOOP
      l_i := l_i + 1;
      DBMS_OUTPUT.PUT_LINE('i=' || l_i || ' mod=' || l_rest);
    END LOOP;
    -- procedures with OUT parameters, positional and named
    num_util.fill(l_a, l_b);
    num_util.fill(p_b => l_b, p_a => l_a);
    DBMS_OUTPUT.PUT_LINE('a=' || l_a || ' b=' || l_b || ' calls=' || num_util.g_calls);
  END run;
END caller;
/"""


def run_output(conn: psycopg.Connection, call: str) -> list[str]:
    got: list[str] = []
    conn.add_notice_handler(lambda d: got.append(d.message_primary))
    conn.execute(call)
    return got


def test_out_functions_at_every_call_site(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", {"num_util.pkg": NUM_UTIL, "caller.pkg": CALLER})
        assert run_output(conn, "CALL caller.run()") == [
            "each=33 rest=1",
            "val=60 rest=2",
            "now 11 cnt=11",
            "now 16 cnt=16",
            "parsed 12.5",
            "not a number, val=null",
            "n=7 /   n=12345 len=9",
            "g_rest=1 arr3=1",
            "i=1 mod=2",
            "i=2 mod=1",
            "a=42 b=hi!! calls=4",
        ]
        # the converted function itself: its OUT parameters and its value as one row
        row = conn.execute("SELECT * FROM num_util.bump(5, p_step => 2)").fetchone()
        assert row == (7, "now 7")
        cols = conn.execute("SELECT * FROM num_util.split_amount(10, 3)").description
        assert [c.name for c in cols] == ["p_rest", "RETURN"]


STANDALONE = """
CREATE OR REPLACE FUNCTION next_code (p_prefix IN VARCHAR2, p_seq IN OUT NUMBER, p_width IN PLS_INTEGER := 4)
  RETURN VARCHAR2 IS
BEGIN
  p_seq := NVL(p_seq, 0) + 1;
  RETURN p_prefix || LPAD(p_seq, p_width, '0');
END next_code;
/
CREATE OR REPLACE FUNCTION safe_div (p_a IN NUMBER, p_b IN NUMBER, p_error OUT VARCHAR2) RETURN NUMBER IS
BEGIN
  p_error := NULL;
  RETURN p_a / p_b;
EXCEPTION
  WHEN ZERO_DIVIDE THEN
    p_error := 'division by zero';
    RETURN NULL;
END safe_div;
/
CREATE OR REPLACE PROCEDURE codes (p_count IN PLS_INTEGER) IS
  l_seq   NUMBER;
  l_err   VARCHAR2(100);
  l_total NUMBER := 0;
  FUNCTION pick (p_n IN NUMBER, p_half OUT NUMBER) RETURN NUMBER IS
  BEGIN
    p_half := p_n / 2;
    RETURN p_n * 10;
  END pick;
BEGIN
  FOR i IN 1 .. p_count LOOP
    DBMS_OUTPUT.PUT_LINE(next_code('A-', l_seq) || ' seq=' || l_seq);
  END LOOP;
  DBMS_OUTPUT.PUT_LINE(next_code(p_prefix => 'B', p_seq => l_seq, p_width => 2));
  CASE safe_div(1, 0, l_err)
    WHEN 1 THEN DBMS_OUTPUT.PUT_LINE('one');
    ELSE DBMS_OUTPUT.PUT_LINE('err=' || l_err);
  END CASE;
  l_total := l_total + safe_div(9, 3, l_err);
  DBMS_OUTPUT.PUT_LINE('total=' || l_total || ' err=' || NVL(l_err, '-'));
  LOOP
    EXIT WHEN pick(l_total, l_total) < 10;
    DBMS_OUTPUT.PUT_LINE('half=' || l_total);
  END LOOP;
  DBMS_OUTPUT.PUT_LINE('last=' || l_total);
END codes;
/
CREATE OR REPLACE FUNCTION positive (p_n IN NUMBER, p_abs OUT NUMBER) RETURN VARCHAR2 IS
BEGIN
  p_abs := ABS(p_n);
  IF p_n > 0 THEN
    RETURN 'yes';
  END IF;
END positive;
/
CREATE OR REPLACE FUNCTION ask (p_n IN NUMBER) RETURN VARCHAR2 IS
  l_abs NUMBER;
  l_answer VARCHAR2(10);
BEGIN
  l_answer := positive(p_n, l_abs);
  RETURN l_answer || ' ' || l_abs;
END ask;
/
CREATE OR REPLACE FUNCTION code_of (p_prefix IN VARCHAR2) RETURN VARCHAR2 IS
  l_seq NUMBER := 41;
BEGIN
  RETURN next_code(p_prefix, l_seq, 3) || '/' || l_seq;
END code_of;
/
"""


def test_standalone_and_nested_out_functions(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", {"units.sql": STANDALONE})
        assert run_output(conn, "CALL codes(2)") == [
            "A-0001 seq=1",
            "A-0002 seq=2",
            "B03",
            "err=division by zero",
            "total=3 err=-",
            "half=1.5",
            "half=.75",
            "last=.375",
        ]
        assert conn.execute("SELECT code_of('Z')").fetchone()[0] == "Z042/42"
        assert conn.execute("SELECT ask(3)").fetchone()[0] == "yes 3"
        # ending without RETURN is an error, as for any function (Oracle: ORA-06503)
        with pytest.raises(psycopg.Error) as err:
            conn.execute("SELECT ask(-3)")
        assert err.value.sqlstate == "2F005"


REFUSED = """
CREATE OR REPLACE FUNCTION split_name (p_full IN VARCHAR2, p_last OUT VARCHAR2) RETURN VARCHAR2 IS
BEGIN
  p_last := SUBSTR(p_full, INSTR(p_full, ' ') + 1);
  RETURN SUBSTR(p_full, 1, INSTR(p_full, ' ') - 1);
END split_name;
/
CREATE OR REPLACE PROCEDURE in_sql IS
  l_last VARCHAR2(100);
  l_first VARCHAR2(100);
BEGIN
  SELECT split_name('Ada Lovelace', l_last) INTO l_first FROM dual;
END in_sql;
/
CREATE OR REPLACE VIEW v_names AS SELECT split_name('Ada Lovelace', NULL) AS first_name FROM dual;
CREATE OR REPLACE PROCEDURE in_declaration IS
  l_last VARCHAR2(100);
  l_first VARCHAR2(100) := split_name('Ada Lovelace', l_last);
BEGIN
  NULL;
END in_declaration;
/
CREATE OR REPLACE PROCEDURE short_circuit (p_flag IN BOOLEAN) IS
  l_last VARCHAR2(100);
BEGIN
  IF p_flag AND split_name('Ada Lovelace', l_last) IS NOT NULL THEN
    NULL;
  END IF;
END short_circuit;
/
"""


def test_what_oracle_refuses_or_postgresql_cannot_order_is_reported(tmp_path):
    found = convert_folder(tmp_path / "app", {"units.sql": REFUSED})
    reasons = {uid.split(":")[1]: " | ".join(u.message for u in items) for uid, items in found.items() if items}
    assert "ORA-06572" in reasons["app.in_sql"]
    assert "no statement can run before it" in reasons["app.in_declaration"]
    assert "evaluates only on some paths" in reasons["app.short_circuit"]
    assert "ORA-06572" in reasons["app.v_names"]
    assert set(reasons) == {"app.in_sql", "app.v_names", "app.in_declaration", "app.short_circuit"}


TWINS = """
CREATE OR REPLACE PACKAGE twins AS
  TYPE t_list IS TABLE OF VARCHAR2(20);
  FUNCTION label (p_a IN NUMBER) RETURN VARCHAR2;
  FUNCTION label (p_a IN NUMBER, p_sign OUT VARCHAR2) RETURN VARCHAR2;
  PROCEDURE push (p_item IN VARCHAR2, p_list IN OUT t_list);
  FUNCTION push (p_item IN VARCHAR2, p_list IN OUT t_list) RETURN BOOLEAN;
  PROCEDURE run;
END twins;
/
CREATE OR REPLACE PACKAGE BODY twins AS
  FUNCTION label (p_a IN NUMBER) RETURN VARCHAR2 IS
    l_sign VARCHAR2(1);
    l_text VARCHAR2(100);
  BEGIN
    l_text := label(p_a, l_sign);
    RETURN l_text;
  END label;

  FUNCTION label (p_a IN NUMBER, p_sign OUT VARCHAR2) RETURN VARCHAR2 IS
  BEGIN
    p_sign := CASE WHEN p_a < 0 THEN '-' ELSE '+' END;
    RETURN 'abs ' || ABS(p_a);
  END label;

  PROCEDURE push (p_item IN VARCHAR2, p_list IN OUT t_list) IS
  BEGIN
    p_list.EXTEND;
    p_list(p_list.COUNT) := p_item;
  END push;

  FUNCTION push (p_item IN VARCHAR2, p_list IN OUT t_list) RETURN BOOLEAN IS
  BEGIN
    IF p_item IS NULL THEN
      RETURN FALSE;
    END IF;
    push(p_item, p_list);
    RETURN TRUE;
  END push;

  PROCEDURE run IS
    l_list t_list := t_list();
    l_sign VARCHAR2(1);
  BEGIN
    DBMS_OUTPUT.PUT_LINE(label(-5) || ' ' || label(-5, l_sign) || ' ' || l_sign);
    push('a', l_list);
    IF push('b', l_list) THEN
      DBMS_OUTPUT.PUT_LINE('pushed, count=' || l_list.COUNT);
    END IF;
    IF NOT push(NULL, l_list) THEN
      DBMS_OUTPUT.PUT_LINE('refused, count=' || l_list.COUNT || ' last=' || l_list(l_list.LAST));
    END IF;
  END run;
END twins;
/
"""


def test_overloads_that_differ_only_by_out_parameters(pg_dsn, tmp_path):
    """PostgreSQL tells routines apart by their inputs: the overload with OUT parameters gets a
    name of its own, which every rewritten call uses."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", {"twins.pkg": TWINS})
        assert run_output(conn, "CALL twins.run()") == [
            "abs 5 abs 5 -",
            "pushed, count=2",
            "refused, count=2 last=b",
        ]


def convert_folder(folder: Path, files: dict[str, str]) -> dict[str, list]:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    source = read_schema_dir(folder)
    ctx = prepare_context(source)
    return {u.id: convert_unit(u, ctx).unconverted for u in source.units}
