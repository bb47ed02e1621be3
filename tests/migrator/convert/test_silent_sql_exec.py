"""Silent wrongs of issue 29 (part 1), judged by execution on a real PostgreSQL.

Each case deploys and runs with a plausible answer when its rule is off — and that answer is not
Oracle's. The expected values are Oracle's, from the reference manuals cited per test; each test
also shows what the output was before its rule (the rule off), so the rule is what makes the
difference.
"""

from __future__ import annotations

import psycopg
import pytest

from tests.migrator.convert.test_call_conversion_exec import migrate_and_deploy, scalar

# ---- TO_CHAR datetime format models ------------------------------------------------------------
RUNTIME_MODEL = """
CREATE OR REPLACE FUNCTION fmt (p_when IN DATE, p_model IN VARCHAR2) RETURN VARCHAR2 IS
BEGIN
    RETURN TO_CHAR(p_when, p_model);
END fmt;
/
CREATE OR REPLACE FUNCTION fm_twice (p_when IN DATE) RETURN VARCHAR2 IS
BEGIN
    RETURN TO_CHAR(p_when, 'FMDay DD FMMonth YYYY') || '|' || TO_CHAR(p_when, 'FMHH24:MI:SS');
END fm_twice;
/
"""
FORMATS = (
    RUNTIME_MODEL
    + """
CREATE OR REPLACE FUNCTION stamp (p_when IN DATE) RETURN VARCHAR2 IS
    ts TIMESTAMP := TIMESTAMP '2024-03-05 14:07:09.123456';
BEGIN
    RETURN TO_CHAR(p_when, 'FMDay, DD Month YYYY') || '|' || TO_CHAR(p_when, 'FMDay DD FMMonth YYYY')
        || '|' || TO_CHAR(p_when, 'FMHH24:MI:SS') || '|' || TO_CHAR(p_when, 'FMHH24:FMMI:SS')
        || '|' || TO_CHAR(p_when, 'DAY|Day|day|DY|Dy|dy|MON|Mon|mon')
        || '|' || TO_CHAR(p_when, 'HH HH12 HH24 AM a.m.')
        || '|' || TO_CHAR(p_when, 'DDTH ddth DDSP Ddsp DDSPTH')
        || '|' || TO_CHAR(p_when, 'J IW Q WW W DDD RR SYYYY "Quarter" Q SSSSS')
        || '|' || TO_CHAR(ts, 'HH24:MI:SSXFF3 FF6 FF9');
END stamp;
/
"""
)

# Oracle Database SQL Language Reference, "Format Models" → "Datetime Format Elements" (Day/Month
# padded to the longest name, case of the element, SP/SPTH, SYYYY's sign position, X the radix
# character, FFn digits) and "Format Model Modifiers" (FM "toggles": a second FM switches fill mode
# back on).
STAMP_0905 = (
    "Tuesday, 5 March 2024|Tuesday 5 March     2024|9:5:3|9:05:03"
    "|TUESDAY  |Tuesday  |tuesday  |TUE|Tue|tue|MAR|Mar|mar|09 09 09 AM a.m.|05TH 05th FIVE Five FIFTH"
    "|2460375 10 1 10 1 065 24  2024 Quarter 1 32703|14:07:09.123 123456 123456000"
)


def test_to_char_datetime_models(tmp_path, pg_dsn):
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, FORMATS)
    assert scalar(conn, "SELECT stamp(TIMESTAMP '2024-03-05 09:05:03')") == STAMP_0905
    assert scalar(conn, "SELECT fm_twice(TIMESTAMP '2024-03-05 09:05:03')") == "Tuesday 5 March     2024|9:5:3"
    # a model known only at run time is read the same way
    for model, oracle in [
        ("FMDay DD FMMonth YYYY", "Tuesday 5 March     2024"),
        ('DdSPTH "of" MONTH, YYYY', "Fifth of MARCH    , 2024"),
        ("HH:MI:SS PM SSSSS", "12:01:05 AM 00065"),
        ("FMMon DDth, YYYY", "Mar 5th, 2024"),
        ("Month", "March    "),
    ]:
        got = scalar(conn, f"SELECT fmt(TIMESTAMP '2024-03-05 00:01:05', '{model}')")
        assert got == oracle, (model, got)
    assert scalar(conn, "SELECT fmt(NULL, 'YYYY')") is None
    with pytest.raises(psycopg.errors.InvalidDatetimeFormat):
        scalar(conn, "SELECT fmt(TIMESTAMP '2024-03-05 00:00:00', 'YYYY-QQQ-Z')")  # ORA-01821


def test_to_char_datetime_models_rule_off_is_postgresql_s_reading(tmp_path, pg_dsn):
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, RUNTIME_MODEL, frozenset({"expr.format_model"}))
    # PostgreSQL's FM covers the one element after it
    assert scalar(conn, "SELECT fm_twice(TIMESTAMP '2024-03-05 09:05:03')") == "Tuesday 05 March 2024|9:05:03"
    assert scalar(conn, "SELECT fmt(TIMESTAMP '2024-03-05 09:05:03', 'FMDay DD FMMonth YYYY')") == (
        "Tuesday 05 March 2024"
    )


NUMBER_MODELS = """
CREATE OR REPLACE FUNCTION num_models (p_n IN NUMBER) RETURN VARCHAR2 IS
BEGIN
    RETURN TO_CHAR(p_n, 'XX') || '|' || TO_CHAR(p_n, 'xxxx') || '|' || TO_CHAR(p_n, 'FMXXXX') || '|'
        || TO_CHAR(p_n, '0XXX') || '|' || TO_CHAR(p_n, '$999') || '|' || TO_CHAR(p_n * 1000 / 100, '$9,999.99') || '|'
        || TO_CHAR(p_n * 10, '9.99EEEE') || '|' || TO_CHAR(p_n / 5100, '.99') || '|' || TO_CHAR(p_n * 100, '$9,999')
        || '|' || TO_CHAR(p_n / 2, 'TM') || '|' || TO_CHAR(p_n * 10, '999G999D99') || '|' || TO_CHAR(p_n, '99')
        || '|' || TO_CHAR(p_n, 'FM99.0');
END num_models;
/
"""


def test_to_char_number_models(tmp_path, pg_dsn):
    """SQL Language Reference, "Number Format Elements": X is hexadecimal with one leading blank
    unless 0 or FM precede it; $ is printed next to the number; EEEE is scientific notation
    (capital E); a model may start at the decimal point; an overflow is '#' over the model's width
    and one more; TM is the shortest text."""
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, NUMBER_MODELS)
    assert scalar(conn, "SELECT num_models(255)") == (
        " FF|   ff|FF|00FF| $255| $2,550.00| 2.55E+03| .05|#######|127.5|   2,550.00|###|#####"
    )


def test_to_char_number_models_rule_off_is_postgresql_s_reading(tmp_path, pg_dsn):
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, NUMBER_MODELS, frozenset({"expr.number_format_model"}))
    assert scalar(conn, "SELECT num_models(255)") == (
        "XX|xxxx|XXXX| #XXX|$ 255|$ 2,550.00| 2.55e+03| .##|$ #,###|TM|   2,550.00| ##|##.#"
    )


# ---- dynamic SQL whose text is built at run time ------------------------------------------------------
DYNAMIC = """
CREATE TABLE items (item_id NUMBER(10) PRIMARY KEY, label VARCHAR2(40), added DATE, qty NUMBER);
INSERT INTO items VALUES (1, 'a', DATE '2024-01-05', 5);
INSERT INTO items VALUES (2, 'b''x', DATE '2024-02-05', 7);
CREATE OR REPLACE FUNCTION count_items (p_id IN VARCHAR2, p_day IN VARCHAR2, p_label IN VARCHAR2) RETURN NUMBER IS
    v_count NUMBER;
    v_table VARCHAR2(30) := 'items';
    v_sql   VARCHAR2(300);
BEGIN
    v_sql := 'SELECT COUNT(*) FROM ' || v_table || ' WHERE item_id >= :1 AND qty > :2'
          || ' AND added < TO_DATE(:3, ''YYYY-MM-DD'') AND (label <> :4 OR :5 IS NULL)';
    EXECUTE IMMEDIATE v_sql INTO v_count USING p_id, 1, p_day, p_label, p_label;
    RETURN v_count;
EXCEPTION
    WHEN OTHERS THEN
        RETURN -1;
END count_items;
/
CREATE OR REPLACE PROCEDURE set_qty (p_id IN VARCHAR2, p_qty IN VARCHAR2) IS
BEGIN
    EXECUTE IMMEDIATE 'UPDATE ' || 'items' || ' SET qty = :q WHERE item_id = :i' USING p_qty, p_id;
END set_qty;
/
CREATE OR REPLACE FUNCTION qty_of (p_id IN VARCHAR2) RETURN NUMBER IS
    c     SYS_REFCURSOR;
    v     NUMBER;
    v_sql VARCHAR2(100) := 'SELECT qty FROM items WHERE item_id = :x';
BEGIN
    OPEN c FOR v_sql USING p_id;
    FETCH c INTO v;
    CLOSE c;
    RETURN v;
END qty_of;
/
"""


def test_runtime_dynamic_sql_binds_convert_like_oracle(tmp_path, pg_dsn):
    """PL/SQL Language Reference, "EXECUTE IMMEDIATE Statement" (binds are placeholders for values,
    by position) and SQL Language Reference, "Data Type Comparison Rules" → "Implicit Data
    Conversion": a VARCHAR2 value compared with or written into a NUMBER or DATE is converted to
    it. The statement text is built at run time, so the converter cannot type it."""
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, DYNAMIC)
    assert scalar(conn, "SELECT count_items('1', '2024-03-01', 'b''x')") == 1
    assert scalar(conn, "SELECT count_items('1', '2024-03-01', NULL)") == 2
    assert scalar(conn, "SELECT count_items('x', '2024-03-01', NULL)") == -1  # ORA-01722 caught
    conn.execute("CALL set_qty('2', '9')")
    assert scalar(conn, "SELECT qty_of('2')") == 9
    # the value is a value: quotes in it never become SQL
    assert scalar(conn, "SELECT count_items('1', '2024-03-01', 'x'' OR ''1''=''1')") == 2


def test_runtime_dynamic_sql_binds_rule_off_hide_the_error(tmp_path, pg_dsn):
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, DYNAMIC, frozenset({"plsql.dynamic_bind_literals"}))
    assert scalar(conn, "SELECT count_items('1', '2024-03-01', 'b''x')") == -1  # numeric = varchar, caught
    with pytest.raises(psycopg.errors.UndefinedFunction):
        scalar(conn, "SELECT qty_of('2')")


NEIGHBOURS = """
CREATE TABLE stock (item_id NUMBER(10) PRIMARY KEY, added DATE, qty NUMBER);
INSERT INTO stock VALUES (1, DATE '2024-01-05', 5);
INSERT INTO stock VALUES (2, DATE '2024-02-05', 7);
CREATE OR REPLACE FUNCTION via_dbms_sql (p_id IN VARCHAR2) RETURN NUMBER IS
    c INTEGER;
    n INTEGER;
    v NUMBER;
BEGIN
    c := DBMS_SQL.OPEN_CURSOR;
    DBMS_SQL.PARSE(c, 'SELECT qty FROM stock WHERE item_id = :id AND added > :d', DBMS_SQL.NATIVE);
    DBMS_SQL.BIND_VARIABLE(c, ':id', p_id);
    DBMS_SQL.BIND_VARIABLE(c, ':d', '2024-01-01');
    DBMS_SQL.DEFINE_COLUMN(c, 1, v);
    n := DBMS_SQL.EXECUTE(c);
    IF DBMS_SQL.FETCH_ROWS(c) > 0 THEN
        DBMS_SQL.COLUMN_VALUE(c, 1, v);
    END IF;
    DBMS_SQL.CLOSE_CURSOR(c);
    RETURN v;
EXCEPTION
    WHEN OTHERS THEN
        RETURN -1;
END via_dbms_sql;
/
CREATE OR REPLACE FUNCTION bump (p_id IN VARCHAR2) RETURN NUMBER IS
    v_new NUMBER;
    v_old NUMBER;
BEGIN
    EXECUTE IMMEDIATE 'UPDATE stock SET qty = qty + 2 WHERE item_id = :1 RETURNING qty INTO :2' USING p_id RETURNING INTO v_new;
    EXECUTE IMMEDIATE 'UPDATE stock SET qty = qty - 1 WHERE item_id = :1 RETURNING qty INTO :2' USING IN p_id, OUT v_old;
    RETURN v_new * 100 + v_old;
EXCEPTION
    WHEN OTHERS THEN
        RETURN -1;
END bump;
/
CREATE OR REPLACE FUNCTION in_arithmetic (p_n IN VARCHAR2) RETURN NUMBER IS
    v NUMBER;
BEGIN
    EXECUTE IMMEDIATE 'SELECT ABS(item_id) + MOD(qty, :1) + :2 * 10 FROM stock WHERE item_id = :3' INTO v USING p_n, p_n, p_n;
    RETURN v;
EXCEPTION
    WHEN OTHERS THEN
        RETURN -1;
END in_arithmetic;
/
"""


def test_dynamic_binds_neighbours(tmp_path, pg_dsn):
    """The same implicit conversion where a bind meets a number elsewhere: a DBMS_SQL bind given as
    a string literal, binds in arithmetic and numeric functions (SQL Language Reference, "Implicit
    Data Conversion"), and DML whose RETURNING ... INTO names a placeholder, bound by RETURNING
    INTO or by an OUT bind (PL/SQL Language Reference, "EXECUTE IMMEDIATE Statement")."""
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, NEIGHBOURS)
    assert scalar(conn, "SELECT via_dbms_sql('2')") == 7
    assert scalar(conn, "SELECT in_arithmetic('2')") == 2 + 7 % 2 + 20
    assert scalar(conn, "SELECT bump('2')") == 9 * 100 + 8
    assert scalar(conn, "SELECT bump('x')") == -1


# ---- INTERVAL arithmetic -----------------------------------------------------------------------------
INTERVALS = """
CREATE OR REPLACE FUNCTION spans (p_hours IN NUMBER) RETURN VARCHAR2 IS
    i  INTERVAL DAY TO SECOND := NUMTODSINTERVAL(p_hours, 'HOUR');
    y  INTERVAL YEAR TO MONTH := NUMTOYMINTERVAL(14, 'MONTH');
    t1 TIMESTAMP := TIMESTAMP '2024-03-05 14:07:09.5';
BEGIN
    RETURN i || '|' || EXTRACT(DAY FROM i) || '|' || EXTRACT(HOUR FROM i) || '|' || (i * 3) || '|' || (i / 4)
        || '|' || y || '|' || EXTRACT(YEAR FROM y) || '|' || (t1 - TIMESTAMP '2024-01-01 00:00:00')
        || '|' || (DATE '2024-03-05' - DATE '2024-01-01');
END spans;
/
CREATE OR REPLACE FUNCTION as_text (p_n IN NUMBER) RETURN VARCHAR2 IS
    i INTERVAL DAY TO SECOND := INTERVAL '1 12:30:00' DAY TO SECOND;
    y INTERVAL YEAR(3) TO MONTH := INTERVAL '1-6' YEAR TO MONTH;
    v VARCHAR2(100);
BEGIN
    v := i;
    RETURN v || '|' || TO_CHAR(y) || '|' || TO_CHAR(i * p_n);
END as_text;
/
CREATE OR REPLACE FUNCTION next_month (p_day IN DATE) RETURN VARCHAR2 IS
BEGIN
    RETURN TO_CHAR(p_day + INTERVAL '1' MONTH, 'YYYY-MM-DD') || ' ' || TO_CHAR(ADD_MONTHS(p_day, 1), 'YYYY-MM-DD');
EXCEPTION
    WHEN OTHERS THEN
        RETURN 'error ' || SQLCODE;
END next_month;
/
"""


def test_interval_arithmetic_like_oracle(tmp_path, pg_dsn):
    """SQL Language Reference, "Datetime/Interval Arithmetic" (a datetime plus a YEAR TO MONTH
    interval that names a day the month lacks is ORA-01839; ADD_MONTHS goes to the month's last
    day instead), "EXTRACT (datetime)" and "Interval Literals" (DAY(2) TO SECOND(6) and YEAR(2) TO
    MONTH by default; NUMTODSINTERVAL / NUMTOYMINTERVAL return DAY(9) / YEAR(9))."""
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, INTERVALS)
    assert scalar(conn, "SELECT spans(26)") == (
        "+01 02:00:00.000000|1|2|+03 06:00:00.000000|+00 06:30:00.000000|+01-02|1|+000000064 14:07:09.500000|64"
    )
    assert scalar(conn, "SELECT next_month(TIMESTAMP '2024-03-05 00:00:00')") == "2024-04-05 2024-04-05"
    assert scalar(conn, "SELECT next_month(TIMESTAMP '2024-01-31 00:00:00')") == "error -1839"
    assert scalar(conn, "SELECT as_text(2)") == "+01 12:30:00.000000|+001-06|+03 01:00:00.000000"


def test_interval_arithmetic_rule_off_is_postgresql_s_answer(tmp_path, pg_dsn):
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, INTERVALS, frozenset({"expr.interval_arith"}))
    assert scalar(conn, "SELECT next_month(TIMESTAMP '2024-01-31 00:00:00')") == "2024-02-29 2024-02-29"
    assert scalar(conn, "SELECT spans(26)").startswith("26:00:00|0|26|")


# ---- errors while declarations are initialised --------------------------------------------------------
DECLARATIONS = """
CREATE TABLE accounts (id NUMBER(4) PRIMARY KEY, owner VARCHAR2(10));
CREATE OR REPLACE FUNCTION credit (p_amount IN NUMBER) RETURN VARCHAR2 IS
    v VARCHAR2(100) := 'start';
BEGIN
    BEGIN
        DECLARE
            credit_limit CONSTANT NUMBER(3) := p_amount;
            acct   accounts.id%TYPE := p_amount;
            tries  POSITIVE := p_amount - 1;
        BEGIN
            v := v || ' ok ' || credit_limit;
        EXCEPTION
            WHEN VALUE_ERROR THEN
                v := v || ' inner';
        END;
    EXCEPTION
        WHEN VALUE_ERROR THEN
            v := v || ' enclosing ' || SQLCODE;
    END;
    RETURN v;
END credit;
/
CREATE OR REPLACE FUNCTION parse_amount (p_text IN VARCHAR2) RETURN VARCHAR2 IS
    v_amount NUMBER := TO_NUMBER(p_text);
    v_len    NUMBER := NVL(LENGTH(p_text), 0);
BEGIN
    RETURN NVL(TO_CHAR(v_amount), 'none') || '/' || v_len;
END parse_amount;
/
"""


def test_declarations_initialise_like_oracle(tmp_path, pg_dsn):
    """PL/SQL Language Reference, "Exception Raised in Declaration" (Example 11-22: handled by the
    enclosing block, never by the block's own handler), "NUMBER Data Type" (NUMBER(3) holds at most
    999: ORA-06502 beyond), "PLS_INTEGER and BINARY_INTEGER Data Types" (POSITIVE is 1 ..), and ''
    is NULL when a parameter's value is bound (its initialisers see NULL)."""
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, DECLARATIONS)
    assert scalar(conn, "SELECT credit(5)") == "start ok 5"
    assert scalar(conn, "SELECT credit(999)") == "start ok 999"
    assert scalar(conn, "SELECT credit(5000)") == "start enclosing -6502"
    assert scalar(conn, "SELECT credit(1)") == "start enclosing -6502"  # POSITIVE := 0
    assert scalar(conn, "SELECT parse_amount('')") == "none/0"
    assert scalar(conn, "SELECT parse_amount('12')") == "12/2"


def test_declarations_rules_off_are_postgresql_s_answers(tmp_path, pg_dsn):
    # ddl.number_precision (NUMBER(p) as numeric(p)) bounds the variable too: all bounds off
    off = frozenset({"plsql.number_range", "plsql.declaration_order", "ddl.number_precision"})
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, DECLARATIONS, off)
    assert scalar(conn, "SELECT credit(5000)") == "start ok 5000"
    assert scalar(conn, "SELECT credit(1)") == "start ok 1"
    with pytest.raises(psycopg.errors.InvalidTextRepresentation):
        scalar(conn, "SELECT parse_amount('')")


PADS = """
CREATE OR REPLACE FUNCTION padded (p_len IN NUMBER) RETURN VARCHAR2 IS
    v VARCHAR2(20) := RPAD('x', p_len, '-');
BEGIN
    RETURN v || '|' || LPAD('7', p_len + 0.9, '0') || '|' || NVL(LPAD('7', p_len - 5), 'null');
END padded;
/
"""


def test_pad_to_a_number_length(tmp_path, pg_dsn):
    """SQL Language Reference, "LPAD" / "RPAD": n is a NUMBER (an integer, a fraction truncated);
    PostgreSQL has no lpad(text, numeric): the call failed at run time, in a declaration too."""
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, PADS)
    assert scalar(conn, "SELECT padded(3)") == "x--|007|null"
