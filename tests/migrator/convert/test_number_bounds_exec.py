"""NUMBER(p) keeps Oracle's precision bound after conversion, run on a real PostgreSQL (issue #33.4b).

Oracle Database SQL Language Reference, "Data Types" → "NUMBER Data Type": NUMBER(p) is
NUMBER(p,0); a value is rounded to the scale, and "If a value exceeds the precision, then Oracle
returns an error message" (ORA-01438 for a column; a PL/SQL variable raises ORA-06502,
VALUE_ERROR). PL/SQL Language Reference, "Formal Parameters of Constrained Subtypes": a parameter
of a numeric subtype (or %TYPE) "inherits the range of the subtype, but not the precision or
scale" — so a parameter anchored to a NUMBER(6) column receives 3.75 unrounded.

Rule ``ddl.number_precision`` maps NUMBER(p) to numeric(p); switched off, the old smallint /
integer / bigint mapping lets 99999999 into a NUMBER(6) column (shown by the last test).
"""

from __future__ import annotations

import psycopg
import pytest

from harness.ground_truth.oracle_errors import sqlstate_matches_ora
from migrator.batch.output import preamble_sql
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.dependencies import analyze_dependencies
from migrator.source.reader import read_schema_dir

SCHEMA = """
CREATE TABLE order_items (
    item_id   NUMBER(10) PRIMARY KEY,
    quantity  NUMBER(6) NOT NULL
);
INSERT INTO order_items (item_id, quantity) VALUES (1, 5);

CREATE OR REPLACE PROCEDURE set_qty (p_id IN NUMBER, p_qty IN NUMBER) IS
BEGIN
    UPDATE order_items SET quantity = p_qty WHERE item_id = p_id;
END;
/
CREATE OR REPLACE FUNCTION checked_qty (p_qty IN NUMBER) RETURN NUMBER IS
    v order_items.quantity%TYPE;
BEGIN
    v := p_qty;
    RETURN v;
EXCEPTION
    WHEN VALUE_ERROR THEN
        RETURN -1;
END;
/
CREATE OR REPLACE FUNCTION echo_qty (p_qty IN order_items.quantity%TYPE) RETURN NUMBER IS
BEGIN
    RETURN p_qty;
END;
/
"""


def _deploy(conn: psycopg.Connection, folder, disabled: frozenset[str] = frozenset()) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "schema.sql").write_text(SCHEMA, encoding="utf-8")
    source = read_schema_dir(folder)
    ctx = prepare_context(source, disabled_rules=disabled)
    conn.execute(preamble_sql(source.schema, []))
    by_id = source.by_id()
    for unit_id in analyze_dependencies(source).order:
        conversion = convert_unit(by_id[unit_id], ctx)
        assert conversion.error is None and not conversion.unconverted, unit_id
        if unit_id.startswith("data:"):
            from harness.judge.deploy import execute_script

            error, _ = execute_script(conn, conversion.output)
            assert error is None, error
        else:
            conn.execute(conversion.output)


def test_number_p_column_refuses_more_digits(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        _deploy(conn, tmp_path / "src")
        conn.execute("CALL set_qty(1, 999999)")  # six digits fit
        conn.execute("CALL set_qty(1, 3.5)")  # rounded to the scale 0, half away from zero
        assert conn.execute("SELECT quantity FROM order_items").fetchone()[0] == 4
        with pytest.raises(psycopg.Error) as err:
            conn.execute("CALL set_qty(1, 99999999)")
        assert sqlstate_matches_ora(err.value.sqlstate, -1438), err.value.sqlstate
        with pytest.raises(psycopg.Error):
            conn.execute("CALL set_qty(1, 999999.5)")  # rounds to 1000000: seven digits
        assert conn.execute("SELECT quantity FROM order_items").fetchone()[0] == 4


def test_anchored_variable_raises_value_error_and_parameter_keeps_the_fraction(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        _deploy(conn, tmp_path / "src")
        assert conn.execute("SELECT checked_qty(123456)").fetchone()[0] == 123456
        assert conn.execute("SELECT checked_qty(1234567)").fetchone()[0] == -1  # WHEN VALUE_ERROR
        assert conn.execute("SELECT checked_qty(2.5)").fetchone()[0] == 3
        assert conn.execute("SELECT echo_qty(3.75)").fetchone()[0] == pytest.approx(3.75)


def test_with_the_rule_off_the_bound_is_lost(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        # plsql.number_range bounds a NUMBER(p) variable too (a domain): both off
        _deploy(conn, tmp_path / "src", frozenset({"ddl.number_precision", "plsql.number_range"}))
        conn.execute("CALL set_qty(1, 99999999)")  # Oracle: ORA-01438
        assert conn.execute("SELECT quantity FROM order_items").fetchone()[0] == 99999999
        assert conn.execute("SELECT checked_qty(1234567)").fetchone()[0] == 1234567
