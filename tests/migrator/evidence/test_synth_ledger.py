"""Synthesized scenarios catch the mutants that need inputs taken from the data together, more
decimals than the body rounds to, a call from an exception handler, or two dates far apart.

tests/migrator/evidence/ledger is a small schema whose units each need one: a month's postings
of an account (its key and a date of its own rows, the period after and before them), a rounding
to 2 places behind a cap the typical call sets (a number with more decimals, the defaults left
out), a routine that prints the error being handled (called from the handler of a ZERO_DIVIDE),
a loop a month at a time between two dates (the dates far apart, each way round). Judged as in
test_synth_mutants.py: synthesized from the Oracle source, recorded on the migration's own
output, each mutant (harness.judge_quality.mutation) verified on a real PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from migrator.convert.dispatch import prepare_context
from migrator.evidence.candidates import routine_candidates
from migrator.evidence.steps import call_step, in_handler
from migrator.evidence.targets import ParamInfo, Target, find_targets
from migrator.evidence.values import literal
from migrator.source.reader import read_schema_dir
from tests.migrator.evidence.synth_judging import caught, data_view, judge_schema

SRC = Path(__file__).resolve().parent / "ledger"


@pytest.fixture(scope="module")
def judged(pg_engine, tmp_path_factory):
    return judge_schema(pg_engine, SRC, "ledger", tmp_path_factory.mktemp("ledger"))


@pytest.mark.parametrize(
    ("unit", "pick"),
    [
        # ADD_MONTHS(..., 1) made 2: the account's own month (and the month before its first posting)
        ("function:ledger.month_total", lambda m: m.operator == "constant" and "TIMESTAMP(0)), (1 + 1))" in m.text),
        # ROUND(..., 2) made 3: an amount with more decimals, the cap (a default) left out
        ("procedure:ledger.grow", lambda m: m.operator == "constant" and "/ 100), (2 + 1))" in m.text),
        # SUBSTR(FORMAT_ERROR_STACK, 1, 200) from 2: called from a handler, the stack is not NULL
        ("procedure:ledger.note_error", lambda m: m.operator == "constant" and "(1 + 1), 200)" in m.text),
        # ADD_MONTHS(v_month, 1) made 2: the loop runs over months of different lengths
        ("function:ledger.grown_balance", lambda m: m.operator == "constant" and "v_month, (1 + 1))" in m.text),
    ],
)
def test_the_mutant_is_caught(pg_engine, judged, unit, pick):
    results = caught(pg_engine, judged, unit, pick)
    assert all(caught for _d, caught in results), results


def test_the_handler_step_is_a_block_each_system_runs(judged):
    """The call from a handler: Oracle's is a block whose handler holds the call; PostgreSQL's
    publishes the error first, as converted handlers do, and takes it back after the call."""
    _report, _base, _preamble, scenarios, _transcript = judged
    steps = [st for sc in scenarios.scenarios if "procedure:ledger.note_error" in sc.units for st in sc.steps
             if "synth_zero" in st.oracle]  # fmt: skip
    assert steps, "no call from a handler"
    assert "WHEN OTHERS THEN\nBEGIN\n    note_error(" in steps[0].oracle and steps[0].oracle.endswith("END;\nEND;")
    assert "oracompat.error_push(SQLSTATE, SQLERRM, synth_context)" in steps[0].postgres
    assert "oracompat.error_push(NULL, NULL, NULL)" in steps[0].postgres


ACCOUNTS = [{"acct_id": 1, "kind": "CHK", "opened_on": dt.datetime(2015, 1, 1)},
            {"acct_id": 2, "kind": "SAVE", "opened_on": dt.datetime(2017, 5, 1)}]  # fmt: skip
ENTRIES = [{"entry_id": 1, "acct_id": 1, "posted_on": dt.datetime(2022, 3, 10)},
           {"entry_id": 2, "acct_id": 1, "posted_on": dt.datetime(2022, 4, 5)},
           {"entry_id": 3, "acct_id": 2, "posted_on": dt.datetime(2022, 7, 1)}]  # fmt: skip


def _dates(cands, *names):
    return [tuple(c.values[n].label if n in c.values and not c.values[n].is_null else None for n in names)
            for c in cands if c.values]  # fmt: skip


def test_key_and_date_come_from_the_same_rows():
    """An account's own month, the month after its last posting, the month before its first."""
    key = ParamInfo("p_acct_id", "IN", "NUMBER", "number", None, False)
    month = ParamInfo("p_month", "IN", "DATE", "date", None, False)
    target = Target("function", ("u",), "month_total", "s", "month_total", [key, month], return_family="number",
                    reads={"accounts", "entries"}, deep_words={"acct_id", "posted_on", "add_months", "entries"})  # fmt: skip
    data = data_view({"accounts": ACCOUNTS, "entries": ENTRIES}, {"accounts": ["acct_id"], "entries": ["entry_id"]})
    pairs = set(_dates(routine_candidates(target, data, [], 32), "p_acct_id", "p_month"))
    assert {("1", "2022-03-10"), ("2", "2022-07-01"), ("1", "2022-05-05"), ("1", "2022-02-10")} <= pairs, pairs


def test_two_dates_are_set_apart_in_order_for_each_key():
    key = ParamInfo("p_acct_id", "IN", "NUMBER", "number", None, False)
    until = ParamInfo("p_until", "IN", "DATE", "date", None, False)
    since = ParamInfo("p_from", "IN", "DATE", "date", None, True)
    target = Target("function", ("u",), "grown", "s", "grown", [key, until, since], return_family="number",
                    reads={"accounts"}, deep_words={"acct_id", "accounts"})  # fmt: skip
    data = data_view({"accounts": ACCOUNTS}, {"accounts": ["acct_id"]})
    spans = [(k, u, f) for k, u, f in _dates(routine_candidates(target, data, [], 32), "p_acct_id", "p_until", "p_from")
             if u and f and (dt.date.fromisoformat(u) - dt.date.fromisoformat(f)).days > 60]  # fmt: skip
    assert {k for k, _u, _f in spans} == {"1", "2"}, spans


def test_a_function_called_from_a_handler_declares_a_variable_oracle_accepts():
    """`r VARCHAR2;` is refused by Oracle (PLS-00215): the result variable of a function that
    returns an unconstrained text type gets a length."""
    code = ParamInfo("p_code", "IN", "NUMBER", "number", None, False)
    target = Target("function", ("u",), "pkg.err_text", "pkg", "err_text", [code], returns="VARCHAR2",
                    return_family="text", words={"sqlerrm"})  # fmt: skip
    step = in_handler(call_step("call_2", target, {"p_code": literal(5, "number")}, [], named=True, block=True))
    assert "r VARCHAR2(32767);" in step.oracle and "synth_zero := 1 / synth_zero;" in step.oracle
    assert step.postgres.startswith("DO $synth$") and step.postgres.endswith("END $synth$")


def test_a_public_member_writes_what_its_private_helper_writes(tmp_path):
    """A package's logger: the public log_error calls the body's private write_log, which
    inserts into a table; log_error's steps must read that table back."""
    (tmp_path / "tables.tab").write_text("CREATE TABLE log_rows (msg VARCHAR2(100));\n")
    (tmp_path / "pkg.pks").write_text(
        "CREATE OR REPLACE PACKAGE logger AS\n    PROCEDURE log_error (p_msg IN VARCHAR2);\nEND logger;\n/\n"
    )
    (tmp_path / "pkg.pkb").write_text(
        "CREATE OR REPLACE PACKAGE BODY logger AS\n"
        "    PROCEDURE write_row (p_msg IN VARCHAR2) IS\n    BEGIN\n"
        "        INSERT INTO log_rows (msg) VALUES (p_msg);\n    END write_row;\n\n"
        "    PROCEDURE log_error (p_msg IN VARCHAR2) IS\n    BEGIN\n"
        "        write_row(p_msg || SQLERRM);\n    END log_error;\nEND logger;\n/\n"
    )
    source = read_schema_dir(tmp_path, "app")
    (target,) = [t for t in find_targets(source, prepare_context(source)) if t.key == "procedure.logger.log_error"]
    assert target.writes == {"log_rows"} and target.mutates
