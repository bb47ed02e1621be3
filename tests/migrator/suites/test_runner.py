"""The suite runner on real PostgreSQL: verdicts, isolation, timeouts, code that commits, tests
that cannot run; and reading results from DBMS_OUTPUT lines."""

from __future__ import annotations

import psycopg
import pytest

from harness.engines.postgres import scratch_database
from harness.judge.deploy import deploy_units
from migrator.suites import model
from migrator.suites.output_lines import DEFAULT_RESULT_PATTERN, PatternError, compile_pattern, read_output
from migrator.suites.runner import run_tests

PLAIN = model.TestStyle.PLAIN
LIB = """
CREATE TABLE t (a int);
CREATE FUNCTION add1(x int) RETURNS int LANGUAGE plpgsql AS $$BEGIN RETURN x + 1; END$$;
CREATE PROCEDURE add_and_commit(x int) LANGUAGE plpgsql AS $$BEGIN INSERT INTO t VALUES (x); COMMIT; END$$;
"""


def _t(name: str, body: str, **kw) -> model.SuiteTest:
    return model.SuiteTest(name, "s", PLAIN, f"f:{name}", body, **kw)


@pytest.fixture(scope="module")
def results(pg_engine):
    with scratch_database(pg_engine, prefix="suite") as dsn:
        pre, outcomes = deploy_units(dsn, "", [("lib", LIB, ())])
        assert pre.ok and outcomes[0].ok, outcomes
        db = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
        tests = [
            _t("ok", "DO $$BEGIN RAISE NOTICE 'OK add1 %', add1(1); END$$;", result_pattern=DEFAULT_RESULT_PATTERN),
            _t(
                "fail_line",
                "DO $$BEGIN RAISE NOTICE 'FAILED add1(1) = %', add1(1); END$$;",
                result_pattern=DEFAULT_RESULT_PATTERN,
            ),  # fmt: skip
            _t("app_error", "DO $$BEGIN RAISE EXCEPTION 'boom' USING ERRCODE = 'O2001'; END$$;"),
            _t("missing", "SELECT no_such_function()"),
            _t("writes", "INSERT INTO t VALUES (1)"),
            _t(
                "sees_nothing",
                "DO $$BEGIN IF (SELECT count(*) FROM t) <> 0 THEN RAISE EXCEPTION 'leak'; END IF; END$$;",
            ),
            _t("slow", "SELECT pg_sleep(5)"),
            _t("throws_ok", "DO $$BEGIN RAISE EXCEPTION 'x' USING ERRCODE = 'O2001'; END$$;", expected_error="-20001"),
            _t("throws_name", "SELECT 1/0", expected_error="zero_divide"),
            _t("throws_missing", "SELECT 1", expected_error="ORA-01403"),
            _t("disabled", "SELECT 1", disabled="not yet"),
            _t("blocked", "SELECT 1", needs=("package_body:s.p",)),
            _t("cannot", "", cannot_run="the call s.p did not convert: reason"),
            _t("commits", "CALL add_and_commit(7)"),
            _t(
                "after_commit",
                "DO $$BEGIN IF (SELECT count(*) FROM t) <> 0 THEN RAISE EXCEPTION 'leak'; END IF; END$$;",
            ),
            _t("setup_fails", "SELECT 1", setup=("SELECT no_such_function()",)),
            _t("teardown_runs", "SELECT 1/0", teardown=("DO $$BEGIN RAISE NOTICE 'teardown'; END$$;",)),
        ]
        run = run_tests(pg_engine, db, tests, timeout_ms=500, blocked={"package_body:s.p": "refused"})
        with psycopg.connect(dsn) as conn:
            left = conn.execute("SELECT count(*) FROM t").fetchone()
    return {r.name: r for r in run.results}, run, left


def test_verdicts(results):
    by, run, _ = results
    assert by["ok"].outcome is model.Outcome.PASSED and by["ok"].output == ["OK add1 2"]
    assert by["fail_line"].outcome is model.Outcome.FAILED and by["fail_line"].message == "FAILED add1(1) = 2"
    assert by["app_error"].outcome is model.Outcome.FAILED and by["app_error"].message == "ORA-20001: boom"
    assert by["missing"].outcome is model.Outcome.ERROR and by["missing"].message.startswith("SQLSTATE 42883")
    assert by["throws_ok"].outcome is model.Outcome.PASSED
    assert by["throws_name"].outcome is model.Outcome.PASSED
    assert by["throws_missing"].outcome is model.Outcome.FAILED
    assert "nothing was raised" in by["throws_missing"].message
    assert by["disabled"].outcome is model.Outcome.SKIPPED and by["disabled"].message == "not yet"
    assert by["blocked"].outcome is model.Outcome.ERROR and "package_body:s.p: refused" in by["blocked"].message
    assert by["cannot"].outcome is model.Outcome.ERROR and by["cannot"].message.startswith("cannot run: the call")
    assert by["setup_fails"].outcome is model.Outcome.ERROR and by["setup_fails"].message.startswith("setup failed")
    assert by["teardown_runs"].outcome is model.Outcome.ERROR and by["teardown_runs"].output == ["teardown"]
    assert run.totals()["total"] == 17


def test_isolation_timeout_and_commits(results):
    by, _, left = results
    assert by["writes"].outcome is model.Outcome.PASSED
    assert by["sees_nothing"].outcome is model.Outcome.PASSED  # the insert before was rolled back
    assert by["slow"].outcome is model.Outcome.ERROR and by["slow"].message.startswith("timed out after 0.5 s")
    # a procedure that commits ran on a copy of its own: it passed, and nothing reached the others
    assert by["commits"].outcome is model.Outcome.PASSED, by["commits"].message
    assert by["after_commit"].outcome is model.Outcome.PASSED
    assert left == (0,)


@pytest.mark.parametrize(
    "lines, failed, reports",
    [
        (["OK one", "ok two"], False, True),
        (["[FAIL] three"], True, True),
        (["not ok 4 - x"], True, True),
        (["10 tests, 9 passed, 1 failed"], True, True),
        (["Tests run: 5, Failures: 0, Errors: 0"], False, True),
        (["Passed: 3, Failed: 0"], False, True),
        (["okay, nothing to say", "PASS-through value"], False, False),
        (["ERROR: could not open"], True, True),
    ],
)
def test_output_lines(lines, failed, reports):
    verdict = read_output(lines, compile_pattern(None))
    assert verdict.failed is failed
    assert verdict.reports is reports


def test_user_pattern():
    pattern = compile_pattern(r"^(?:(?P<pass>\+\+)|(?P<fail>--)) ")
    assert read_output(["++ a", "-- b"], pattern).failed_lines == 1
    with pytest.raises(PatternError):
        compile_pattern("OK|FAIL")
