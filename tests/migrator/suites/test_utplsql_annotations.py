"""utPLSQL v3 annotations read from package specifications: which procedures are tests, their
fixtures in utPLSQL's order, contexts, --%disabled and --%throws; and the outcomes of --%throws
and of errors when the discovered tests run on a real PostgreSQL."""

from __future__ import annotations

import psycopg
import pytest

from harness.engines.postgres import scratch_database
from migrator.source.units import SourceSpan, Unit, UnitKind
from migrator.suites import model
from migrator.suites.model import Outcome
from migrator.suites.runner import run_tests
from migrator.suites.utplsql import UT_SQL, discover, is_utplsql, parse_spec
from tests.migrator.convert.test_oracompat_packages import deploy_library
from tests.migrator.plsql_support import convert_all, split_sql


def spec(text: str, name: str = "test_orders", kind: UnitKind = UnitKind.PACKAGE_SPEC) -> Unit:
    return Unit(f"{kind.value}:s.{name}", kind, "s", name, text, SourceSpan("t/test.pks", 10, 40, 0, len(text)))


ORDERS = """CREATE OR REPLACE PACKAGE test_orders AS
  --%suite(Orders)
  --%suitepath(shop.sales)
  --%beforeall(shared_setup.load, prepare)

  --%beforeall
  PROCEDURE first_all;

  --%beforeeach
  PROCEDURE outer_each;

  --%aftereach
  PROCEDURE outer_after_each;

  --%afterall
  PROCEDURE last_all;

  --%test(Totals add up)
  --%beforetest(before_totals)
  --%aftertest(after_totals)
  PROCEDURE totals;

  -- a helper, not a test: a plain comment and a blank line separate it from annotations
  --%test(orphan annotation: separated from the procedure by a blank line)

  PROCEDURE helper;

  --%context(refunds)
  --%disabled(refunds move to another suite)

  --%beforeeach
  PROCEDURE inner_each;

  --%test
  PROCEDURE refund_total;

  --%endcontext

  --%test(Shipping)
  --%throws(-20001, ORA-01403, no_data_found, bad_state)
  PROCEDURE shipping;

  bad_state EXCEPTION;
  PRAGMA EXCEPTION_INIT(bad_state, -20010);
END test_orders;
"""


def test_tests_fixtures_and_contexts_in_utplsql_order():
    tests = discover([spec(ORDERS)])
    assert [t.name for t in tests] == ["test_orders.totals", "test_orders.refund_total", "test_orders.shipping"]
    totals, refund, shipping = tests
    assert totals.style is model.TestStyle.UTPLSQL and totals.suite == "shop.sales.test_orders"
    assert totals.source == "t/test.pks:" + str(10 + ORDERS.splitlines().index("  PROCEDURE totals;"))
    assert totals.description == "Totals add up"
    assert totals.setup == (
        "SELECT ut.begin_test();",
        "CALL shared_setup.load();",
        "CALL test_orders.prepare();",
        "CALL test_orders.first_all();",
        "CALL test_orders.outer_each();",
        "CALL test_orders.before_totals();",
    )
    assert totals.teardown == (
        "CALL test_orders.after_totals();",
        "CALL test_orders.outer_after_each();",
        "CALL test_orders.last_all();",
    )
    assert totals.disabled is None and shipping.disabled is None
    # inside the context: its own beforeeach after the suite's; disabled with the context
    assert refund.suite == "shop.sales.test_orders.refunds"
    assert refund.setup[-1] == "CALL test_orders.inner_each();" and refund.setup[-2] == "CALL test_orders.outer_each();"
    assert refund.disabled == "refunds move to another suite"
    assert "CALL test_orders.totals();" in totals.body and "PERFORM ut.end_test();" in totals.body


def test_throws_lists_ora_codes_predefined_and_declared_exceptions():
    shipping = discover([spec(ORDERS)])[-1]
    assert "WHEN SQLSTATE 'O2001' OR no_data_found OR SQLSTATE 'O2010' THEN" in shipping.body
    assert "PERFORM ut.nothing_raised('-20001, ORA-01403, no_data_found, bad_state');" in shipping.body


def test_a_throws_name_nothing_declares_is_an_error_that_says_so():
    text = ORDERS.replace("bad_state)", "who_knows)")
    shipping = discover([spec(text)])[-1]
    assert "RAISE EXCEPTION" in shipping.body and "who_knows" in shipping.body
    # a resolver (the run's converter) may know it
    found = discover([spec(text)], lambda name: ("SQLSTATE 'OU123'",) if name == "who_knows" else None)[-1]
    assert "WHEN SQLSTATE 'O2001' OR no_data_found OR SQLSTATE 'OU123' THEN" in found.body


def test_library_exceptions_are_known_to_the_tests():
    lib = spec("CREATE PACKAGE lib AS\n  oops EXCEPTION;\nEND lib;\n", "lib")
    text = ORDERS.replace("bad_state)", "lib.oops)")
    shipping = discover([lib, spec(text)])[-1]
    assert "OR SQLSTATE 'OU" in shipping.body


def test_a_package_without_suite_is_not_a_suite_and_a_disabled_suite_skips_everything():
    plain = spec("CREATE PACKAGE p AS\n  --%test\n  PROCEDURE t;\nEND;\n", "p")
    assert parse_spec(plain) is None and not is_utplsql([plain])
    spaced = spec("CREATE PACKAGE p AS\n  -- %suite\n  --%test\n  PROCEDURE t;\nEND;\n", "p")
    assert parse_spec(spaced) is None  # `-- %suite` is a comment to utPLSQL
    assert is_utplsql([spec(ORDERS)])
    off = ORDERS.replace("--%suitepath(shop.sales)", "--%suitepath(shop.sales)\n  --%disabled")
    assert {t.disabled for t in discover([spec(off)])} == {"the suite is disabled"}


RUN_SPEC = """
CREATE OR REPLACE PACKAGE test_run AS
  --%suite

  --%test
  --%throws(-20001)
  PROCEDURE raises_nothing;

  --%test
  --%throws(-20001)
  PROCEDURE raises_other;

  --%test
  --%throws(zero_divide)
  PROCEDURE raises_expected_after_a_failed_expectation;

  --%test
  PROCEDURE raises_unexpectedly;

  --%test
  PROCEDURE passes;
END test_run;
/
"""
RUN_BODY = """
CREATE OR REPLACE PACKAGE BODY test_run AS
  PROCEDURE raises_nothing IS BEGIN NULL; END;
  PROCEDURE raises_other IS n NUMBER; BEGIN n := 1 / 0; END;
  PROCEDURE raises_expected_after_a_failed_expectation IS n NUMBER;
  BEGIN
    ut.expect(1).to_equal(2);
    n := 1 / 0;
  END;
  PROCEDURE raises_unexpectedly IS BEGIN RAISE_APPLICATION_ERROR(-20005, 'boom'); END;
  PROCEDURE passes IS BEGIN ut.expect(1).to_equal(1); END;
END test_run;
/
"""


def test_throws_and_errors_decide_the_outcome_as_utplsql_does(pg_engine):
    units = split_sql(RUN_SPEC + RUN_BODY)
    with scratch_database(pg_engine, prefix="utrun") as dsn:
        with psycopg.connect(dsn, autocommit=True) as conn:
            deploy_library(conn)
            conn.execute(UT_SQL)
            for unit, text, unconverted, _, _ in convert_all(units):
                assert not unconverted, (unit.name, unconverted)
                conn.execute(text)
        tests = discover(units)
        database = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
        got = {r.name.split(".")[1]: r for r in run_tests(pg_engine, database, tests).results}
    assert got["raises_nothing"].outcome is Outcome.FAILED
    assert got["raises_nothing"].message == "Expected one of exceptions (-20001) but nothing was raised."
    assert got["raises_other"].outcome is Outcome.FAILED
    assert got["raises_other"].message.splitlines()[0] == "Actual: -1476 was expected to be one of: (-20001)"
    # the expected error does not hide a failed expectation before it
    assert got["raises_expected_after_a_failed_expectation"].outcome is Outcome.FAILED
    assert got["raises_expected_after_a_failed_expectation"].message == (
        "Actual: 1 (number) was expected to equal: 2 (number)"
    )
    # an error the test did not expect is the test's error, not a failed expectation
    assert got["raises_unexpectedly"].outcome is Outcome.ERROR
    assert "boom" in got["raises_unexpectedly"].message
    assert got["passes"].outcome is Outcome.PASSED


@pytest.mark.parametrize(
    ("oracle", "why"),
    [
        ("ut.expect(c).to_equal(d).join_by('ID');", "modifier .join_by"),
        ("ut.expect(c).to_be_within(1);", "matcher .to_be_within"),
        ("ut.expect(c).to_be_json_object();", "matcher .to_be_json_object"),
    ],
)
def test_what_the_ut_schema_does_not_implement_is_reported(oracle, why):
    src = f"CREATE OR REPLACE PROCEDURE p (c NUMBER, d NUMBER) IS BEGIN {oracle} END;\n/\n"
    [(_, text, unconverted, _, _)] = convert_all(split_sql(src))
    assert [u.construct for u in unconverted] == ["utPLSQL expectation"]
    assert why in unconverted[0].message and "MIGRATOR_UNCONVERTED" in text


def test_a_package_of_the_schema_named_ut_is_not_utplsql():
    src = (
        "CREATE OR REPLACE PACKAGE ut AS\n  PROCEDURE fail(m VARCHAR2);\nEND;\n/\n"
        "CREATE OR REPLACE PROCEDURE p IS BEGIN ut.fail('x'); END;\n/\n"
    )
    done = {u.name: (text, applied) for u, text, _, applied, _ in convert_all(split_sql(src))}
    text, applied = done["p"]
    assert "CALL ut.fail('x');" in text and "plsql.utplsql_expect" not in applied
