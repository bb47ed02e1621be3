"""PL/SQL beyond the first list, converted and run on a real PostgreSQL as the execution role:
FORALL ... SAVE EXCEPTIONS with SQL%BULK_EXCEPTIONS and SQL%BULK_ROWCOUNT, WHERE CURRENT OF,
INSTEAD OF triggers on views, a handler for every predefined exception, nested subprograms that
use the enclosing routine's variables."""

from __future__ import annotations

from pathlib import Path

import psycopg

from tests.migrator.convert.test_oracompat_packages import deploy_library
from tests.migrator.convert.test_plsql_exec import SETUP, notices
from tests.migrator.plsql_support import convert_all, split_sql

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "plsql"


def deploy(dsn: str, oracle: str) -> psycopg.Connection:
    conn = psycopg.connect(dsn, autocommit=True)
    deploy_library(conn)
    conn.execute(SETUP)
    conn.execute("CREATE VIEW s.emp_v AS SELECT id, name FROM s.emp")
    for unit, text, unconverted, _, _ in convert_all(split_sql(oracle)):
        assert not unconverted, (unit.name, unconverted, text)
        conn.execute(text)
    return conn


def golden(name: str) -> str:
    return (GOLDEN / f"{name}.ora.sql").read_text(encoding="utf-8")


def test_forall_save_exceptions_keeps_the_good_rows_and_reports_the_bad(pg_dsn):
    conn = deploy(pg_dsn, golden("forall_save_exceptions"))
    # ids 1 and 2 exist: iterations 2 and 4 fail with ORA-00001, 10, 11 and 12 are inserted and
    # stay inserted although the block's handler catches ORA-24381 (Oracle rolls nothing back)
    assert conn.execute("CALL s.load_emps(NULL)").fetchone()[0] == (
        "2: #2 ORA-00001: unique constraint (.) violated #4 ORA-00001: unique constraint (.) violated"
    )
    assert conn.execute("SELECT id FROM s.emp ORDER BY id").fetchall() == [(1,), (2,), (3,), (10,), (11,), (12,)]
    conn.execute("DELETE FROM s.emp WHERE id > 3")
    conn.execute("DELETE FROM s.emp WHERE id IN (1, 2)")
    assert conn.execute("CALL s.load_emps(NULL)").fetchone()[0] == "all 1"  # no failure: BULK_ROWCOUNT(1)


def test_forall_save_exceptions_unhandled_raises_ora_24381(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE PROCEDURE load_some IS
  TYPE t_ids IS TABLE OF NUMBER;
  l_ids t_ids := t_ids(20, 1, 21);
BEGIN
  FORALL i IN 1 .. l_ids.COUNT SAVE EXCEPTIONS
    INSERT INTO emp (id, name, salary, dept) VALUES (l_ids(i), 'y', 1, 1);
END load_some;
/
""",
    )
    try:
        conn.execute("CALL s.load_some()")
        raise AssertionError("ORA-24381 expected")
    except psycopg.Error as exc:
        assert exc.sqlstate == "OS381"


def test_where_current_of_updates_and_deletes_the_fetched_row(pg_dsn):
    conn = deploy(pg_dsn, golden("where_current_of"))
    assert conn.execute("CALL s.raise_cut(10, NULL)").fetchone()[0] == 1
    assert conn.execute("SELECT id, salary FROM s.emp ORDER BY id").fetchall() == [(2, 1900), (3, 3000)]


def test_instead_of_trigger_counts_the_rows_it_handles(pg_dsn):
    conn = deploy(pg_dsn, golden("trigger_instead_of"))
    assert conn.execute("INSERT INTO s.emp_v VALUES (7, 'zed')").rowcount == 1
    assert conn.execute("UPDATE s.emp_v SET name = 'bo' WHERE id = 2").rowcount == 1
    assert conn.execute("DELETE FROM s.emp_v WHERE id = 1").rowcount == 1
    assert conn.execute("SELECT * FROM s.emp_v ORDER BY id").fetchall() == [(2, "BO"), (3, "Cid"), (7, "ZED")]


def test_every_predefined_exception_is_raised_and_caught_by_name(pg_dsn):
    conn = deploy(pg_dsn, golden("predefined_exceptions"))
    got = [conn.execute("SELECT s.predefined(%s)", (k,)).fetchone()[0] for k in range(1, 10)]
    assert got == [
        "program_error -6501",
        "storage_error -6500",
        "zero_divide -1476",
        "rowtype_mismatch -6504",
        "resource -51",
        "self_is_null ORA-30625: method dispatch on NULL SELF argument is disallowed",
        "no_data_needed -6548",
        "resource -1012",
        "none",
    ]


def test_nested_subprograms_share_the_enclosing_variables(pg_dsn):
    conn = deploy(pg_dsn, golden("nested_outer_variables"))
    # add_item writes l_out and l_count of the enclosing function; quoted reads l_count
    assert conn.execute("SELECT s.format_list('a,b,c'), s.format_list('x', ';')").fetchone() == (
        '"a", "b"*, "c"* (3)',
        '"x" (1)',
    )
    got = notices(conn)
    assert got == []


def test_forward_goto_skips_to_its_label(pg_dsn):
    conn = deploy(pg_dsn, golden("goto_forward") + "\n/\n" + golden("goto_from_handler"))
    # GOTO next_char skips the rest of the loop body, GOTO done leaves the loop; both from IFs
    assert conn.execute("SELECT s.split_quoted('a,\"b,c\",d')").fetchone()[0] == "[a][b,c][d]"
    assert conn.execute("SELECT s.split_quoted(NULL)").fetchone()[0] == "[]"
    # a GOTO from a nested block and from its exception handler to a label of the enclosing list
    assert conn.execute("CALL s.checked_count(NULL, NULL)").fetchone()[0] == "start end"
    assert conn.execute("CALL s.checked_count(3, NULL)").fetchone()[0] == "start counted 3 checked end"


CROSSING_GOTOS = """CREATE OR REPLACE FUNCTION crossing (p IN NUMBER) RETURN VARCHAR2 IS
  r VARCHAR2(100);
BEGIN
  IF p = 1 THEN GOTO a; END IF;
  r := r || 'x';
  IF p = 2 THEN GOTO b; END IF;
  r := r || 'y';
  <<a>> r := r || 'A';
  r := r || 'z';
  <<b>> r := r || 'B';
  RETURN r;
END crossing;
"""


def test_forward_gotos_whose_spans_cross(pg_dsn):
    """GOTO a jumps over GOTO b's statement and b's label lies after a's: one block inside the other."""
    conn = deploy(pg_dsn, CROSSING_GOTOS)
    got = [conn.execute("SELECT s.crossing(%s)", (p,)).fetchone()[0] for p in (1, 2, 3)]
    assert got == ["AzB", "xB", "xyAzB"]


def test_conditional_compilation_selects_code_for_the_target_release(pg_dsn):
    conn = deploy(pg_dsn, golden("conditional_compilation"))
    # 19c: not <= 11.2, VERSION >= 18 and the flag undefined; default optimize level 2; the
    # unit's name and the line of the RETURN (line 14 of the unit, as Oracle counts)
    assert conn.execute("SELECT s.build_info('x')").fetchone()[0] == "BUILD_INFO@14: current/optimized x"


def test_conditional_compilation_for_another_release_flags_and_package_constants(tmp_path):
    from migrator.batch.pipeline import MigrateOptions, migrate
    from migrator.convert.compile_target import CompileTarget

    src = tmp_path / "app"
    src.mkdir()
    (src / "cfg.pks").write_text("CREATE OR REPLACE PACKAGE cfg AS\n  c_trace CONSTANT BOOLEAN := TRUE;\nEND cfg;\n/\n")
    (src / "info.fnc").write_text(golden("conditional_compilation") + "\n/\n")
    (src / "traced.fnc").write_text(
        "CREATE OR REPLACE FUNCTION traced RETURN NUMBER IS\nBEGIN\n"
        "  $IF cfg.c_trace AND $$level > 1 $THEN RETURN 2; $ELSE RETURN 1; $END\nEND traced;\n/\n"
    )
    report = migrate(src, tmp_path / "o1", MigrateOptions(progress=False, compile_target=CompileTarget((11, 2))))
    units = {u.id: u for u in report.units}
    assert "'legacy'" in (tmp_path / "o1" / units["function:app.build_info"].output).read_text()
    assert "RETURN 1;" in (tmp_path / "o1" / units["function:app.traced"].output).read_text()
    assert any("Oracle 11.2" in n for n in units["function:app.traced"].notes)
    flags = CompileTarget((19, 0), (("level", 2), ("trace_level", 1)))
    report = migrate(src, tmp_path / "o2", MigrateOptions(progress=False, compile_target=flags))
    units = {u.id: u for u in report.units}
    assert "RETURN 2;" in (tmp_path / "o2" / units["function:app.traced"].output).read_text()
    # $$trace_level is set: neither branch is taken and the selected $ERROR refuses the unit
    assert "$ERROR unsupported release 19" in (units["function:app.build_info"].error or "")
