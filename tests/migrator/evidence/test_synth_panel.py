"""Synthesized scenarios for what is not a routine call or a table's trigger: the variables and
constants a package specification declares (read through the converted getter, a variable also
set through its setter first), a SUBTYPE resolved to the family of its base type, and a view
written through an INSTEAD OF trigger (INSERT, UPDATE and DELETE on the view itself).

tests/migrator/evidence/panel holds one of each. Before these derivations the specification's
getters were never executed (the unit stayed `unverified` at a coverage below 100 %) and the
INSTEAD OF trigger had no step at all. Judged as in test_synth_ledger.py: synthesized from the
Oracle source, recorded on the migration's own output, each mutant verified on a real PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from migrator.convert.dispatch import build_catalog
from migrator.evidence.candidates import variable_candidates
from migrator.evidence.targets import find_targets
from migrator.source.reader import read_schema_dir
from tests.migrator.evidence.synth_judging import caught, judge_schema

SRC = Path(__file__).resolve().parent / "panel"


@pytest.fixture(scope="module")
def judged(pg_engine, tmp_path_factory):
    return judge_schema(pg_engine, SRC, "panel", tmp_path_factory.mktemp("panel"))


def _targets():
    source = read_schema_dir(SRC)
    return {t.key: t for t in find_targets(source, build_catalog(source))}


def test_a_specifications_variables_and_constants_are_targets_with_their_family():
    targets = _targets()
    found = {k: (t.return_family, t.constant) for k, t in targets.items() if t.kind == "variable"}
    assert found == {
        "variable.panel_cfg.c_enabled": ("text", True),  # SUBTYPE t_flag IS VARCHAR2(1)
        "variable.panel_cfg.c_max_tier": ("number", True),
        "variable.panel_cfg.g_rate": ("number", False),
        "variable.panel_cfg.g_since": ("date", False),
    }
    # a member returning the package's own SUBTYPE, unqualified
    assert targets["function.panel_cfg.is_top"].return_family == "text"
    assert targets["trigger.v_regions_io"].skip is None


def test_a_variable_is_read_and_set_through_the_converted_getter_and_setter():
    targets = _targets()
    constant = variable_candidates(targets["variable.panel_cfg.c_max_tier"])
    assert [c.step.name for c in constant] == ["read"]  # a constant has no setter
    steps = [c.step for c in variable_candidates(targets["variable.panel_cfg.g_rate"])]
    assert steps[0].name == "read" and len(steps) > 2
    set_null = steps[1]
    assert "r panel_cfg.g_rate%TYPE;" in set_null.oracle and "    panel_cfg.g_rate := NULL;" in set_null.oracle
    assert (
        "PERFORM panel_cfg.set__g_rate(NULL);" in set_null.postgres and "r := panel_cfg.g_rate();" in set_null.postgres
    )
    assert any("1.25" in s.postgres for s in steps[2:])  # its default's value, set again


def test_the_view_is_written_through_its_instead_of_trigger(judged):
    _report, _base, _preamble, scenarios, _transcript = judged
    dml = [st.postgres for sc in scenarios.scenarios if "trigger:panel.v_regions_io" in sc.units for st in sc.steps]
    for verb in ("INSERT INTO v_regions", "UPDATE v_regions SET", "DELETE FROM v_regions WHERE region_code ="):
        assert any(s.startswith(verb) for s in dml), verb
    assert any(s.startswith("UPDATE v_regions SET tier = NULL") for s in dml)  # NVL(:NEW.tier, ...) on update
    assert "SELECT * FROM regions" in dml  # the table the trigger writes, read back


def test_every_unit_with_steps_is_correct_and_fully_covered(judged):
    report = judged[0]
    units = {u.id: u for u in report.units}
    for uid in ("package_spec:panel.panel_cfg", "package_body:panel.panel_cfg", "trigger:panel.v_regions_io"):
        assert units[uid].category == "correct", (uid, units[uid].verdict)


@pytest.mark.parametrize(
    ("unit", "pick"),
    [
        # the constant's value: read through its getter
        ("package_spec:panel.panel_cfg", lambda m: m.operator == "constant" and "RETURN (5 + 1);" in m.text),
        # the variable's default, set by the package's initialisation
        ("package_body:panel.panel_cfg", lambda m: m.operator == "constant" and ":= (1.25 + 1);" in m.text),
        # NVL(:NEW.tier, 3) on INSERT through the view, NVL(:NEW.tier, tier + 10) on UPDATE
        ("trigger:panel.v_regions_io", lambda m: m.operator == "constant" and "(3 + 1))" in m.text),
        ("trigger:panel.v_regions_io", lambda m: m.operator == "constant" and "(10 + 1))" in m.text),
    ],
)
def test_the_mutant_is_caught(pg_engine, judged, unit, pick):
    results = caught(pg_engine, judged, unit, pick)
    assert all(c for _d, c in results), results
