"""Synthesized evidence catches the conversions of issues #29 (classes 3, 4, 7) and #33 (item 4).

fixtures/schemas/silent_plsql holds one unit per class (see its routines.sql and tables.sql);
fixtures/reference/silent_plsql is a trusted PostgreSQL port written without the converter's
devices. Scenarios synthesized from the Oracle source alone, recorded on that port
(`record --reference`), judge each unit `wrong` (or, where the old conversion did not deploy,
`rejected`) with its fixing rule off — never `correct` — and `correct` with it on.

The Oracle semantics, by unit:
- parse_amount: SQL Language Reference, TO_NUMBER and "Number Format Models" — the text must fit
  the model: TO_NUMBER('1,5', '9,999,990.99') is ORA-01722, not 15.
- set_quantity: SQL Language Reference, "NUMBER Data Type" — a value beyond NUMBER(6)'s precision
  raises (ORA-01438 in the column, VALUE_ERROR in the %TYPE variable).
- stage_item: SQL Language Reference, CREATE TABLE → GLOBAL TEMPORARY / ON COMMIT — rows private to
  the session; DELETE ROWS emptied at every commit (each step is a call of an autocommit client).
- describe_value: PL/SQL Language Reference, "Forward Declaration", "Overloaded Subprograms" —
  nested overloads of one arity (PLS_INTEGER and DATE), mutual recursion, IN OUT accumulator.
- wallet_cents: Object-Relational Developer's Guide, "Member Methods" — member functions of an
  object column in a view's select list, WHERE and ORDER BY.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.migrator.evidence.port_evidence import port_verdicts, record_port_evidence

ROOT = Path(__file__).resolve().parents[3]
SRC = ROOT / "fixtures" / "schemas" / "silent_plsql"
PORT = ROOT / "fixtures" / "reference" / "silent_plsql"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def evidence(pg_engine, tmp_path_factory):
    """Synthesized scenarios and their ground truth recorded on the trusted port."""
    return record_port_evidence(pg_engine, SRC, PORT, tmp_path_factory.mktemp("silent_plsql"))


def _verdicts(pg_engine, evidence, tmp_path, disabled=frozenset()):
    return port_verdicts(pg_engine, SRC, evidence, tmp_path / "out", disabled)


# unit -> the rule ids that fix it, and its category with them off
FIXED_BY = {
    "parse_amount": ({"expr.to_number_format"}, "wrong"),
    "set_quantity": ({"ddl.number_precision", "plsql.number_range"}, "wrong"),  # either bounds a NUMBER(p) variable
    "stage_item": ({"ddl.session_temporary_table"}, "wrong"),
    "describe_value": ({"plsql.nested_overload"}, "rejected"),  # the overload was lost: refused
    "wallet_cents": ({"expr.object_method"}, "rejected"),  # the view did not deploy
}


def test_every_unit_has_synthesized_steps_recorded_on_the_port(evidence):
    from harness.ground_truth.scenarios import load_scenarios, load_transcript

    scenarios, transcript = load_scenarios(evidence / "scenarios.yaml"), load_transcript(evidence / "transcript.yaml")
    judged = {u.split(".")[-1] for sc in scenarios.scenarios for u in sc.units}
    assert set(FIXED_BY) <= judged, judged
    assert transcript.provenance.kind == "reference" and transcript.provenance.content_hash


def test_with_the_rules_off_the_units_are_never_correct(pg_engine, evidence, tmp_path):
    disabled = frozenset().union(*(rules for rules, _ in FIXED_BY.values()))
    units = _verdicts(pg_engine, evidence, tmp_path, disabled)
    for name, (_, category) in FIXED_BY.items():
        assert units[name].category == category, (name, units[name].category, units[name].verdict)
        assert units[name].tier != "G3"


def test_with_the_rules_on_the_units_are_correct(pg_engine, evidence, tmp_path):
    units = _verdicts(pg_engine, evidence, tmp_path)
    for name in FIXED_BY:
        assert units[name].category == "correct", (name, units[name].verdict)
        assert units[name].tier == "G2"  # a trusted port is not Oracle: never G3
