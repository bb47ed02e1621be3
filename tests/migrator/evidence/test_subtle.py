"""Synthesized evidence catches silently wrong conversions.

fixtures/schemas/subtle holds one unit per class of conversion that deploys, looks right and
returns something else than Oracle (see its routines.sql); fixtures/reference/subtle is a trusted
PostgreSQL port. Scenarios synthesized from the Oracle source alone, recorded on that port
(`record --reference`), must judge such a unit `wrong` — never `correct` — and `correct` once the
rule that fixes it is on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.migrator.evidence.port_evidence import port_verdicts, record_port_evidence

ROOT = Path(__file__).resolve().parents[3]
SRC = ROOT / "fixtures" / "schemas" / "subtle"
PORT = ROOT / "fixtures" / "reference" / "subtle"


@pytest.fixture(scope="module")
def evidence(pg_engine, tmp_path_factory):
    """Synthesized scenarios and their ground truth recorded on the trusted port."""
    return record_port_evidence(pg_engine, SRC, PORT, tmp_path_factory.mktemp("subtle"))


def _verdicts(pg_engine, evidence, tmp_path, disabled=frozenset()):
    return port_verdicts(pg_engine, SRC, evidence, tmp_path / "out", disabled)


def test_every_routine_has_synthesized_steps_recorded_on_the_port(evidence):
    from harness.ground_truth.scenarios import load_scenarios, load_transcript

    scenarios, transcript = load_scenarios(evidence / "scenarios.yaml"), load_transcript(evidence / "transcript.yaml")
    judged = {u.split(".")[-1] for sc in scenarios.scenarios for u in sc.units}
    assert judged == {"describe_item", "count_by_id", "note", "padded_code", "one_line"}
    assert transcript.provenance.kind == "reference" and transcript.provenance.content_hash


# unit -> the rule ids that fix it; with them off the conversion is silently wrong, or (describe_item:
# an OUT parameter after a defaulted one) refused by PostgreSQL and reported — never correct
FIXED_BY = {
    "note": {"plsql.autonomous_output"},
    "describe_item": {"plsql.out_after_default"},
    "count_by_id": {"plsql.dynamic_bind_types", "expr.implicit_from_text"},
    "padded_code": {"expr.char_semantics"},
    "one_line": {"expr.regexp_match"},
}
# classes whose rules are not written yet: never called correct (none left; kept for the next class)
NOT_FIXED: tuple[str, ...] = ()


def test_silently_wrong_conversions_are_wrong_never_correct(pg_engine, evidence, tmp_path):
    disabled = frozenset().union(*FIXED_BY.values())
    units = _verdicts(pg_engine, evidence, tmp_path, disabled)
    expected = {name: "wrong" for name in (*FIXED_BY, *NOT_FIXED)} | {"describe_item": "rejected"}
    for name, category in expected.items():
        assert units[name].category == category, (name, units[name].category, units[name].verdict)
        assert units[name].tier != "G3"


def test_a_fixed_rule_turns_wrong_into_correct(pg_engine, evidence, tmp_path):
    units = _verdicts(pg_engine, evidence, tmp_path)
    for name in FIXED_BY:
        assert units[name].category == "correct", (name, units[name].verdict)
        assert units[name].tier == "G2"  # a trusted port is not Oracle: never G3
    for name in NOT_FIXED:
        assert units[name].category == "wrong", (name, units[name].verdict)
