"""utPLSQL v3 expectations (rule plsql.utplsql_expect) converted and run on a real PostgreSQL
against the `ut` schema (migrator/suites/ut.sql): each failed expectation is recorded with
utPLSQL's message and the test goes on; comparisons are typed as utPLSQL types them."""

from __future__ import annotations

import psycopg
import pytest

from harness.engines.postgres import scratch_database
from migrator.suites.utplsql import FAILED_SQLSTATE, UT_SQL
from tests.migrator.convert.test_oracompat_packages import deploy_library
from tests.migrator.plsql_support import convert_all, split_sql

SPEC = """
CREATE OR REPLACE PACKAGE test_ut AS
  TYPE num_tab IS TABLE OF NUMBER;
  PROCEDURE scalars;
  PROCEDURE cursors;
  PROCEDURE collections;
  PROCEDURE survives_rollback;
  PROCEDURE all_pass;
  PROCEDURE within;
END test_ut;
/
"""

BODY = """
CREATE OR REPLACE PACKAGE BODY test_ut AS
  PROCEDURE scalars IS
    l_n NUMBER := 1;
    l_s VARCHAR2(10) := '1';
    l_empty VARCHAR2(10) := '';
    l_d DATE := DATE '2024-02-29';
  BEGIN
    ut.expect(l_n).to_equal(1.0);                          -- passes: numbers compare by value
    ut.expect(l_n).to_equal(l_s);                          -- number vs varchar2: never equal
    ut.expect(l_empty).to_equal(CAST(NULL AS VARCHAR2));   -- passes: '' is NULL, NULL = NULL
    ut.expect(l_empty).to_equal(CAST(NULL AS VARCHAR2), a_nulls_are_equal => FALSE);
    ut.expect(l_s, 'the code').to_equal('2');
    ut.expect(l_d).to_equal(TO_DATE('2024-02-29', 'YYYY-MM-DD'));  -- passes
    ut.expect(l_d).to_be_greater_than(DATE '2024-03-01');
    ut.expect(l_n).not_to(equal(1));
    ut.expect(l_n).to_(be_null());
    ut.expect(l_empty).not_to_be_null;
    ut.expect(l_n).to_be_not_null();                       -- passes
    ut.expect(l_n > 1).to_be_true();
    ut.expect(l_n).to_be_true;
    ut.expect(l_n).to_be_between(2, 3);
    ut.expect('Hello').to_match('^h');
    ut.expect('Hello').to_match('^h', 'i');                -- passes
    ut.expect('50%').to_be_like('50\\%');                  -- no escape character in Oracle
    ut.expect('50%').to_be_like('50\\%', '\\');            -- passes
    ut.fail('reached the end');
  END scalars;

  PROCEDURE cursors IS
    l_actual SYS_REFCURSOR;
    l_expected SYS_REFCURSOR;
  BEGIN
    OPEN l_actual FOR SELECT 1 AS id, 'a' AS name FROM dual UNION ALL SELECT 2, 'b' FROM dual;
    OPEN l_expected FOR SELECT 1 AS id, 'a' AS name FROM dual UNION ALL SELECT 3, 'c' FROM dual
                        UNION ALL SELECT 4, 'd' FROM dual;
    ut.expect(l_actual).to_equal(l_expected);
    OPEN l_actual FOR SELECT 1 AS id FROM dual;
    ut.expect(l_actual).to_have_count(2);
    OPEN l_actual FOR SELECT 1 AS id FROM dual UNION ALL SELECT 2 FROM dual;
    OPEN l_expected FOR SELECT 2 AS id FROM dual;
    ut.expect(l_actual).to_contain(l_expected);            -- passes
    OPEN l_actual FOR SELECT 2 AS id FROM dual UNION ALL SELECT 1 FROM dual;
    OPEN l_expected FOR SELECT 1 AS id FROM dual UNION ALL SELECT 2 FROM dual;
    ut.expect(l_actual).to_equal(l_expected).unordered;    -- passes: any order
    OPEN l_actual FOR SELECT 2 AS id FROM dual UNION ALL SELECT 1 FROM dual;
    OPEN l_expected FOR SELECT 1 AS id FROM dual UNION ALL SELECT 2 FROM dual;
    ut.expect(l_actual).to_equal(l_expected);
    OPEN l_actual FOR SELECT 1 AS id, SYSDATE AS created FROM dual;
    OPEN l_expected FOR SELECT 1 AS id, DATE '2000-01-01' AS created FROM dual;
    ut.expect(l_actual).to_equal(l_expected).exclude('CREATED');                 -- passes
    OPEN l_actual FOR SELECT 1 AS id, 'x' AS name FROM dual;
    OPEN l_expected FOR SELECT 2 AS id, 'x' AS name FROM dual;
    ut.expect(l_actual).to_equal(l_expected).include(ut_varchar2_list('name'));  -- passes
    OPEN l_actual FOR SELECT 1 AS id, 'x' AS name FROM dual;
    OPEN l_expected FOR SELECT 2 AS id, 'y' AS name FROM dual;
    ut.expect(l_actual).to_equal(l_expected).exclude('name');
  END cursors;

  PROCEDURE collections IS
    l_a num_tab := num_tab(1, 2, 2);
  BEGIN
    ut.expect(anydata.convertCollection(l_a)).to_equal(anydata.convertCollection(num_tab(1, 2, 2)));
    ut.expect(anydata.convertCollection(l_a)).to_equal(anydata.convertCollection(num_tab(1, 2)));
    ut.expect(anydata.convertCollection(l_a)).to_contain(anydata.convertCollection(num_tab(2, 2, 3)));
    ut.expect(anydata.convertCollection(l_a)).to_have_count(3);
    ut.expect(anydata.convertCollection(num_tab())).to_be_empty();
  END collections;

  PROCEDURE survives_rollback IS
    l_n NUMBER;
  BEGIN
    BEGIN
      ut.expect(1).to_equal(2);
      l_n := 1 / 0;
    EXCEPTION
      WHEN ZERO_DIVIDE THEN
        NULL;
    END;
    ut.expect(3).to_equal(4);
  END survives_rollback;

  PROCEDURE within IS
  BEGIN
    ut.expect(3).to_be_within(1).of_(4);                                  -- passes
    ut.expect(3).to_be_within(0.5).of_(4);
    ut.expect(95).to_be_within_pct(5).of_(100);                           -- passes
    ut.expect(94).to_be_within_pct(5).of_(100);
    ut.expect(DATE '2024-01-02').to_be_within(1).of_(DATE '2024-01-01');  -- passes: one day
    ut.expect(DATE '2024-01-03').to_be_within(INTERVAL '1' DAY).of_(DATE '2024-01-01');
  END within;

  PROCEDURE all_pass IS
  BEGIN
    ut.expect(SYSDATE).not_to_be_null();
    ut.expect(UPPER('x')).to_equal('X');
  END all_pass;
END test_ut;
/
"""


@pytest.fixture(scope="module")
def db(pg_engine):
    with scratch_database(pg_engine, prefix="utexp") as dsn, psycopg.connect(dsn, autocommit=True) as conn:
        deploy_library(conn)
        conn.execute(UT_SQL)
        for unit, text, unconverted, _, _ in convert_all(split_sql(SPEC + BODY)):
            assert not unconverted, (unit.name, unconverted, text)
            conn.execute(text)
        yield conn


def failures(conn, procedure: str) -> list[str]:
    conn.execute("SELECT ut.begin_test()")
    conn.execute(f"CALL test_ut.{procedure}()")
    return list(conn.execute("SELECT ut.failures()").fetchone()[0])


def test_expectations_record_typed_failures_with_utplsql_messages(db):
    assert failures(db, "scalars") == [
        "Actual (number) cannot be compared to Expected (varchar2) using matcher 'equal'.",
        "Actual: NULL (varchar2) was expected to equal: NULL (varchar2)",
        "the code\nActual: '1' (varchar2) was expected to equal: '2' (varchar2)",
        "Actual: 2024-02-29T00:00:00 (date) was expected to be greater than: 2024-03-01T00:00:00 (date)",
        "Actual: 1 (number) was expected not to equal: 1 (number)",
        "Actual: 1 (number) was expected to be null",
        "Actual: NULL (varchar2) was expected not to be null",
        "Actual: FALSE (boolean) was expected to be true",
        "The matcher 'be true' cannot be used with data type (number).",
        "Actual: 1 (number) was expected to be between: 2 (number) and 3 (number)",
        "Actual: 'Hello' (varchar2) was expected to match: '^h'",
        "Actual: '50%' (varchar2) was expected to be like: '50\\%'",
        "reached the end",
    ]


def test_cursor_and_collection_matchers(db):
    assert failures(db, "cursors") == [
        "Actual: refcursor [ count = 2 ] was expected to equal: refcursor [ count = 3 ]\n"
        "Diff:\nRows: [ 2 differences ]\n"
        "  Row No. 2 - Actual:   <ID>2</ID><NAME>b</NAME>\n"
        "  Row No. 2 - Expected: <ID>3</ID><NAME>c</NAME>\n"
        "  Row No. 3 - Missing:  <ID>4</ID><NAME>d</NAME>",
        "Actual: (refcursor [ count = 1 ]) was expected to have [ count = 2 ]",
        "Actual: refcursor [ count = 2 ] was expected to equal: refcursor [ count = 2 ]\n"
        "Diff:\nRows: [ 2 differences ]\n"
        "  Row No. 1 - Actual:   <ID>2</ID>\n"
        "  Row No. 1 - Expected: <ID>1</ID>\n"
        "  Row No. 2 - Actual:   <ID>1</ID>\n"
        "  Row No. 2 - Expected: <ID>2</ID>",
        "Actual: refcursor [ count = 1 ] was expected to equal: refcursor [ count = 1 ]\n"
        "Diff:\nRows: [ 1 differences ]\n"
        "  Row No. 1 - Actual:   <ID>1</ID>\n"
        "  Row No. 1 - Expected: <ID>2</ID>",
    ]
    got = failures(db, "collections")
    assert len(got) == 2, got
    assert got[0].startswith("Actual: collection [ count = 3 ] was expected to equal: collection [ count = 2 ]")
    assert got[1] == (
        "Actual: collection [ count = 3 ] was expected to contain: collection [ count = 3 ]\nDiff:\n  Missing:  3"
    )


def test_within_a_distance_or_a_percentage(db):
    assert failures(db, "within") == [
        "Actual: 3 (number) was expected to be within 0.5 of 4 (number)",
        "Actual: 94 (number) was expected to be within 5 % of 100 (number)",
        "Actual: 2024-01-03T00:00:00 (date) was expected to be within 1 day of 2024-01-01T00:00:00 (date)",
    ]


def test_failed_expectations_survive_a_rolled_back_block_and_end_the_test_as_failed(db):
    """utPLSQL keeps failures in package state, which no rollback undoes; so does `ut`."""
    assert failures(db, "survives_rollback") == [
        "Actual: 1 (number) was expected to equal: 2 (number)",
        "Actual: 3 (number) was expected to equal: 4 (number)",
    ]
    with pytest.raises(psycopg.Error) as info:
        db.execute("SELECT ut.end_test()")
    assert info.value.sqlstate == FAILED_SQLSTATE
    assert failures(db, "all_pass") == []
    db.execute("SELECT ut.end_test()")  # nothing failed: nothing raised
