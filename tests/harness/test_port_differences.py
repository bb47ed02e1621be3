"""How a trusted port may differ from the tool without being wrong (issue 33): a plain P0001
error, OUT parameters of another type, a clock that cannot be frozen — and a server whose clock
is frozen, whose own timeouts then never fire."""

from __future__ import annotations

import os
import time

import psycopg
import pytest

from harness.engines.frozen_clock import FrozenClockPostgres, unavailable_reason
from harness.engines.postgres import scratch_database
from harness.ground_truth.scenarios import OraErrorOutcome, OutArg, OutCall, Outcome, Scenario, Step
from harness.ground_truth.trusted_port_outcomes import number_unknown, outcome_of
from harness.judge import out_types
from harness.judge.compare import Mismatch, Observed, compare_step
from harness.judge.runner import iter_runs
from harness.judge.verdict import StepVerdict, UnitEvidence, decide


def test_plain_p0001_is_recorded_as_a_user_defined_error_without_a_number():
    outcome, problem = outcome_of(Observed(None, ["said"], "P0001", "Borrower name required"))
    assert problem is None and outcome is not None and number_unknown(outcome)
    assert outcome.error == OraErrorOutcome(code="", message="Borrower name required", user_defined=True)
    # a port that keeps Oracle's text keeps its number
    numbered, _ = outcome_of(Observed(None, [], "P0001", "ORA-20010: Borrower name required"))
    assert numbered is not None and numbered.error is not None and numbered.error.code == "ORA-20010"
    with pytest.raises(ValueError):
        OraErrorOutcome(code="")  # only a user-defined error may lack its number


def test_a_user_defined_error_is_compared_by_class_and_message():
    expected = Outcome(error=OraErrorOutcome(code="", message="Loan is not open", user_defined=True))
    assert compare_step(expected, Observed(None, [], "O2012", "Loan is not open")) is None
    assert compare_step(expected, Observed(None, [], "P0001", "ORA-20012: Loan is not open")) is None
    assert compare_step(expected, Observed(None, [], "O2012", "Loan is open")).what == "error message"
    assert compare_step(expected, Observed(None, [], "22012", "division by zero")).what == "error"
    missing = compare_step(expected, Observed([[1]], []))
    assert missing is not None and missing.what == "missing error" and "number not recorded" in missing.expected


def test_clock_dependent_steps_are_never_wrong_but_never_enough():
    ev = UnitEvidence("u", parsed=True, deployed=True, reference_problems=[], provenance="reference")
    ev.steps = [StepVerdict("s", "a", None)]
    ev.clock_dependent = ["s/b"]
    verdict = decide(ev)
    assert verdict.category == "unverified" and "clock-dependent" in verdict.reason
    ev.steps.append(StepVerdict("s", "c", Mismatch("rows", "(1)", "(2)")))  # a real difference stays one
    assert decide(ev).category == "wrong"


PORT = """
CREATE PROCEDURE open_it(p_name varchar, OUT p_id numeric, INOUT p_note varchar)
LANGUAGE plpgsql AS $$ BEGIN p_id := 7.5; p_note := p_note || '!'; END $$;
"""
# what the synthesizer writes when the tool's own procedure has p_id bigint and p_note text
STEP = """DO $synth$
DECLARE
    v_0 bigint;
    v_1 text := 'hi';
BEGIN
    CALL "open_it"("p_name" => 'x', "p_id" => v_0, "p_note" => v_1);
    RAISE NOTICE '%', 'p_id=' || coalesce(v_0::text, '') || ' p_note=' || coalesce(v_1, '');
END $synth$"""
CALL = OutCall(routine="open_it", args=[OutArg(var="v_0", param="p_id", declared="bigint"),
                                        OutArg(var="v_1", param="p_note", declared="text")])  # fmt: skip


def test_out_variables_take_the_types_of_the_server_s_own_procedure(pg_dsn):
    step = Step(name="call", oracle="-", postgres=STEP, out_call=CALL)
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(PORT)
        with pytest.raises(psycopg.Error) as refused:  # as written: the port refuses the call
            conn.execute(STEP)
        assert refused.value.sqlstate == "42601"
        text = out_types.adapted(conn, step, {})
        assert "v_0 numeric;" in text and "v_1 character varying := 'hi';" in text
        notes: list[str] = []
        conn.add_notice_handler(lambda d: notes.append(d.message_primary))
        conn.execute(text)
        assert notes == ["p_id=7.5 p_note=hi!"]
        # no such procedure here: the step runs as written
        other = step.model_copy(update={"out_call": CALL.model_copy(update={"routine": "absent"})})
        assert out_types.adapted(conn, other, {}) == STEP


needs_faketime = pytest.mark.skipif(
    unavailable_reason() is not None and not os.environ.get("MIGRATOR_REQUIRE_FAKETIME"),
    reason=f"{unavailable_reason()}",
)


@needs_faketime
def test_a_frozen_server_reads_one_instant_everywhere_and_the_client_times_steps_out():
    from migrator.batch.output import required_extensions

    with FrozenClockPostgres("2024-06-15 10:30:00", required_extensions()) as engine:
        with scratch_database(engine, prefix="clk") as dsn:
            with psycopg.connect(dsn, autocommit=True) as conn:
                first = conn.execute(
                    "SELECT now()::timestamp::text, CURRENT_DATE::text, LOCALTIMESTAMP::text, "
                    "clock_timestamp()::timestamp::text, statement_timestamp()::timestamp::text"
                ).fetchone()
                later = conn.execute("SELECT clock_timestamp()::timestamp::text").fetchone()
            assert first == ("2024-06-15 10:30:00", "2024-06-15", *["2024-06-15 10:30:00"] * 3)
            assert later == ("2024-06-15 10:30:00",)  # it stands still
            loop = Step(name="loop", oracle="-", postgres="DO $$ BEGIN LOOP END LOOP; END $$")
            after = Step(name="after", oracle="-", postgres="SELECT 1")
            scenario = Scenario(id="s", units=["u"], steps=[loop, after])
            template = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
            t0 = time.monotonic()
            (run,) = list(iter_runs(engine, template, [scenario], step_timeout_ms=500))
            assert run.observed["loop"].timed_out and time.monotonic() - t0 < 30
