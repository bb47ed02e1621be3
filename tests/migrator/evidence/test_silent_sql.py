"""Synthesized evidence catches the silent wrongs of issue 29 (part 1).

fixtures/schemas/silent_sql holds one unit per class (dynamic SQL built at run time with VARCHAR2
binds, TO_CHAR datetime format models, INTERVAL arithmetic, an error while a nested block's
declarations are initialised; see its routines.sql); fixtures/reference/silent_sql is a trusted
PostgreSQL port. Scenarios synthesized from the Oracle source alone, recorded on that port
(`record --reference`), must judge each unit `wrong` — never `correct` — with the rule that fixes it
switched off, and `correct` with it on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.migrator.evidence.port_evidence import port_verdicts, record_port_evidence

ROOT = Path(__file__).resolve().parents[3]
SRC = ROOT / "fixtures" / "schemas" / "silent_sql"
PORT = ROOT / "fixtures" / "reference" / "silent_sql"


@pytest.fixture(scope="module")
def evidence(pg_engine, tmp_path_factory):
    """Synthesized scenarios and their ground truth recorded on the trusted port."""
    return record_port_evidence(pg_engine, SRC, PORT, tmp_path_factory.mktemp("silent_sql"))


def _verdicts(pg_engine, evidence, tmp_path, disabled=frozenset()):
    return port_verdicts(pg_engine, SRC, evidence, tmp_path / "out", disabled)


# unit -> the rule ids that fix it; with them off the conversion deploys, runs and answers otherwise
FIXED_BY = {
    "count_orders": {"plsql.dynamic_bind_literals"},
    "order_day": {"expr.format_model"},
    "order_due": {"expr.interval_arith"},
    "amount_band": {"plsql.number_range", "ddl.number_precision"},  # either bounds a NUMBER(p) variable
}


def test_every_routine_has_synthesized_steps_recorded_on_the_port(evidence):
    from harness.ground_truth.scenarios import load_scenarios, load_transcript

    scenarios, transcript = load_scenarios(evidence / "scenarios.yaml"), load_transcript(evidence / "transcript.yaml")
    judged = {u.split(".")[-1] for sc in scenarios.scenarios for u in sc.units}
    assert judged == set(FIXED_BY)
    assert transcript.provenance.kind == "reference" and transcript.provenance.content_hash


def test_silently_wrong_conversions_are_wrong_never_correct(pg_engine, evidence, tmp_path):
    units = _verdicts(pg_engine, evidence, tmp_path, frozenset().union(*FIXED_BY.values()))
    for name in FIXED_BY:
        assert units[name].category == "wrong", (name, units[name].category, units[name].verdict)
        assert units[name].tier != "G3"


def test_a_fixed_rule_turns_wrong_into_correct(pg_engine, evidence, tmp_path):
    units = _verdicts(pg_engine, evidence, tmp_path)
    for name in FIXED_BY:
        assert units[name].category == "correct", (name, units[name].verdict)
        assert units[name].tier == "G2"  # a trusted port is not Oracle: never G3
