"""A utPLSQL v3 suite (fixtures/suites/utplsql_bank: a bank library and its annotated test package)
converted, deployed and run on a real PostgreSQL by `migrate --tests`, reported per test; and the
same suite against a deliberately broken conversion of the library, where exactly the tests that
exercise the broken code fail, with utPLSQL's messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.suites import attach
from migrator.suites.runner import UT_FAILED_SQLSTATE
from migrator.suites.session import SuiteOptions
from migrator.suites.utplsql import FAILED_SQLSTATE, UT_SQL

BANK = Path(__file__).parents[3] / "fixtures" / "suites" / "utplsql_bank"

PASSING = {
    "test_bank.deposit_adds",
    "test_bank.deposit_not_positive",
    "test_bank.withdraw_too_much",
    "test_bank.unknown_account",
    "test_bank.transfer_moves",
    "test_bank.interest_rounds",
    "test_bank.label_format",
    "test_bank.maturity_month_end",
    "test_bank.statement_rows",
    "test_bank.amounts_collection",
    "test_bank.typed_expectations",
    "test_bank.deposit_on_closed",
    "test_bank.closed_keeps_balance",
}


def run_suite(engine, out: Path, disabled: frozenset[str] = frozenset()) -> dict:
    """`migrate --tests` deploying on the session's server (its admin DSN: the run still gets its
    own execution role and scratch databases)."""
    opts = MigrateOptions(
        deploy=engine.admin_dsn(), suite=SuiteOptions(dirs=(BANK / "tests",)), disabled_rules=disabled
    )
    migrate(BANK / "src", out, opts)
    return json.loads((out / "tests.json").read_text(encoding="utf-8"))


def outcomes(run: dict) -> dict[str, tuple[str, str]]:
    return {t["name"]: (t["outcome"], t["message"]) for t in run["tests"]}


def test_the_runner_and_the_ut_schema_agree_on_the_failure_sqlstate():
    assert UT_FAILED_SQLSTATE == FAILED_SQLSTATE
    assert f"ERRCODE = '{FAILED_SQLSTATE}'" in (Path(attach.__file__).with_name("ut.sql")).read_text()


@pytest.mark.slow
def test_the_suite_runs_and_reports_per_test(pg_engine, tmp_path):
    run = run_suite(pg_engine, tmp_path / "out")
    got = outcomes(run)
    assert {n for n, (o, _) in got.items() if o == "passed"} == PASSING, got
    assert got["test_bank.overdraft_limit"] == ("skipped", "overdraft limits are not implemented yet")
    assert run["totals"] == {"passed": 13, "failed": 0, "error": 0, "skipped": 1, "total": 14}
    by_name = {t["name"]: t for t in run["tests"]}
    # beforeeach and aftereach print around every test that ran, in utPLSQL's order
    assert by_name["test_bank.deposit_adds"]["output"] == ["balances: 100 / 50.25", "done"]
    assert by_name["test_bank.deposit_adds"]["suite"] == "bank.test_bank"
    assert by_name["test_bank.deposit_on_closed"]["suite"] == "bank.test_bank.closed accounts"
    # the ut schema is part of the test code's psql script too
    script = (tmp_path / "out" / "deploy_tests.sql").read_text(encoding="utf-8").splitlines()
    assert script[script.index("\\ir support/00_preamble.sql") + 1] == f"\\ir {attach.STYLE_SUPPORT}"
    assert (tmp_path / "out" / attach.STYLE_SUPPORT).read_text(encoding="utf-8") == UT_SQL
    # passing tests are evidence for the library unit they executed
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    body = next(u for u in report["units"] if u["id"] == "package_body:src.bank")
    assert body["category"] == "correct" and body["provenance"].startswith("suite:")


@pytest.mark.slow
def test_a_broken_conversion_fails_the_tests_that_exercise_it(pg_engine, tmp_path, monkeypatch):
    """The library's converted body is replaced by one where ROUND truncates and ADD_MONTHS is
    PostgreSQL's interval arithmetic (no last-day-of-month rule): the two tests that check those
    fail with every failed expectation's message; every other test still passes."""
    real = attach.deploy_and_run

    def broken(engine, preamble, library, *args, **kwargs):
        mutated = []
        for unit_id, sql, deps in library:
            if unit_id == "package_body:src.bank":
                assert "RETURN ROUND(" in sql and "oracompat.add_months(l_opened, p_months)" in sql
                sql = sql.replace("RETURN ROUND(", "RETURN TRUNC(")
                sql = sql.replace(
                    "oracompat.add_months(l_opened, p_months)", "l_opened + make_interval(months => p_months)"
                )
            mutated.append((unit_id, sql, deps))
        return real(engine, preamble, mutated, *args, **kwargs)

    monkeypatch.setattr(attach, "deploy_and_run", broken)
    run = run_suite(pg_engine, tmp_path / "out")
    got = outcomes(run)
    failed = {n for n, (o, _) in got.items() if o == "failed"}
    assert failed == {"test_bank.interest_rounds", "test_bank.maturity_month_end"}, got
    assert {n for n, (o, _) in got.items() if o == "passed"} == PASSING - failed
    # a failed expectation does not stop the test: both wrong roundings are reported, in order
    assert got["test_bank.interest_rounds"][1] == (
        "Actual: 0.12 (number) was expected to equal: 0.13 (number)\n"
        "Actual: -0.12 (number) was expected to equal: -0.13 (number)"
    )
    assert got["test_bank.maturity_month_end"][1].splitlines() == [
        "Actual: 2024-03-29T00:00:00 (date) was expected to equal: 2024-03-31T00:00:00 (date)",
        "Actual: 2024-03-29T00:00:00 (date) was expected to be greater than: 2024-03-30T00:00:00 (date)",
    ]
    # the failing tests make the unit they executed wrong, naming the test
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    body = next(u for u in report["units"] if u["id"] == "package_body:src.bank")
    assert body["category"] == "wrong"


@pytest.mark.slow
def test_test_code_that_does_not_convert_says_why_instead_of_passing(pg_engine, tmp_path):
    """With the expectation rule off, every test procedure that holds an expectation cannot run:
    it is an error naming why (never a pass, never a failed expectation, even under --%throws);
    the tests without expectations still run, and the disabled one stays skipped."""
    run = run_suite(pg_engine, tmp_path / "out", frozenset({"plsql.utplsql_expect"}))
    got = outcomes(run)
    assert got.pop("test_bank.overdraft_limit")[0] == "skipped"
    still = {"test_bank.deposit_not_positive", "test_bank.withdraw_too_much", "test_bank.deposit_on_closed"}
    assert {n for n, (o, _) in got.items() if o == "passed"} == still, got
    for name in set(got) - still:
        outcome, message = got[name]
        assert outcome == "error" and "is not converted: utPLSQL expectation" in message, (name, got[name])
