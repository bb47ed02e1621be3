"""Synthesized scenarios for what is not a routine call or a table's trigger: the variables and
constants a package specification declares (read through the converted getter, a variable also
set through its setter first), a SUBTYPE resolved to the family of its base type, a view
written through an INSTEAD OF trigger (INSERT, UPDATE and DELETE on the view itself), an object
type's constructor, MEMBER and STATIC methods (the type's own unit judged by them, and by the
routines whose signature names it), hexadecimal texts for HEXTORAW, texts split at the
separator a body looks for, and a trigger on a table exported empty beside tables with rows.

tests/migrator/evidence/panel holds one of each. Before these derivations the specification's
getters were never executed (the unit stayed `unverified` at a coverage below 100 %), the
INSTEAD OF trigger, the type body and the empty table's trigger had no step at all, and every
call of `hex_bytes` failed. Judged as in test_synth_ledger.py: synthesized from the
Oracle source, recorded on the migration's own output, each mutant verified on a real PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from migrator.convert.dispatch import prepare_context
from migrator.evidence.candidates import method_candidates, variable_candidates
from migrator.evidence.targets import find_targets
from migrator.evidence.values import candidates
from migrator.source.reader import read_schema_dir
from tests.migrator.evidence.synth_judging import caught, data_view, judge_schema

SRC = Path(__file__).resolve().parent / "panel"


@pytest.fixture(scope="module")
def judged(pg_engine, tmp_path_factory):
    return judge_schema(pg_engine, SRC, "panel", tmp_path_factory.mktemp("panel"))


def _targets():
    source = read_schema_dir(SRC)
    return {t.key: t for t in find_targets(source, prepare_context(source))}


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
    methods = {k: (t.flavour, t.pg_name, t.returns_self) for k, t in targets.items() if t.kind == "method"}
    assert methods == {
        "method.t_span.t_span": ("CONSTRUCTOR", "t_span__new", True),
        "method.t_span.width": ("MEMBER", "t_span__width", False),
        "method.t_span.widen": ("MEMBER", "t_span__widen", False),
        "method.t_span.of_width": ("STATIC", "t_span__of_width", True),
    }
    # a type is judged by its methods' steps and by those of the routines whose signature names it
    assert "type:panel.t_span" in targets["method.t_span.width"].units
    assert targets["function.span_width"].units == ("function:panel.span_width", "type:panel.t_span")
    assert targets["function.hex_bytes"].units == ("function:panel.hex_bytes",)


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


def test_a_member_is_called_on_an_object_built_from_its_attributes():
    targets = _targets()
    widen = method_candidates(targets["method.t_span.widen"], data_view({}), 32)
    first = widen[0].step
    assert "    o := t_span(" in first.oracle and "    o.widen(p_by => " in first.oracle
    assert "    o := ROW(" in first.postgres and ")::panel.t_span;" in first.postgres
    assert "    CALL panel.t_span__widen(o, p_by => " in first.postgres
    assert "DBMS_OUTPUT.PUT_LINE('hi=' || TO_CHAR(o.hi));" in first.oracle  # the object after the call
    assert any(c.values and c.values["p_by"].is_null and c.keep for c in widen)
    ctor = method_candidates(targets["method.t_span.t_span"], data_view({}), 32)
    assert ctor[0].step.postgres.count("panel.t_span__new(") == 1 and "t_span(p_text => " in ctor[0].step.oracle
    texts = [c.values["p_text"].oracle for c in ctor if c.values]
    assert "'12-345'" in texts  # the separator INSTR looks for, between two numbers


def test_hexadecimal_texts_reach_hextoraw():
    targets = _targets()
    values = [v.oracle for v in candidates(targets["function.hex_bytes"].params[0], targets["function.hex_bytes"],
                                           data_view({}))]  # fmt: skip
    assert values[0] == "'0F'" and {"'FF00'", "'00ff'", "'ABC'", "'XYZ'"} <= set(values)


def test_an_object_parameter_is_built_from_values_of_its_attributes():
    target = _targets()["function.span_width"]
    param = target.params[0]
    assert param.obj is not None and param.obj.attributes == (("lo", "number"), ("hi", "number"))
    values = candidates(param, target, data_view({}))
    assert (values[0].oracle, values[0].pg) == ("t_span(1, 1)", "ROW(1, 1)::panel.t_span")
    assert any(v.oracle == "t_span(NULL, 1)" for v in values) and values[-1].is_null  # atomically NULL last


def test_the_view_is_written_through_its_instead_of_trigger(judged):
    _report, _base, _preamble, scenarios, _transcript = judged
    dml = [st.postgres for sc in scenarios.scenarios if "trigger:panel.v_regions_io" in sc.units for st in sc.steps]
    for verb in ("INSERT INTO v_regions", "UPDATE v_regions SET", "DELETE FROM v_regions WHERE region_code ="):
        assert any(s.startswith(verb) for s in dml), verb
    assert any(s.startswith("UPDATE v_regions SET tier = NULL") for s in dml)  # NVL(:NEW.tier, ...) on update
    assert "SELECT * FROM regions" in dml  # the table the trigger writes, read back


def test_a_trigger_on_an_empty_table_beside_data_inserts_rows_made_for_it(judged):
    """region_notes is exported without rows while regions has some: its trigger's INSERT steps
    insert rows made for it (the foreign key from the export's regions), and its UPDATE steps
    insert them first. No rows are put into any other scenario (the export keeps its empty
    table empty)."""
    _report, _base, _preamble, scenarios, _transcript = judged
    mine = [sc for sc in scenarios.scenarios if "trigger:panel.region_notes_biu" in sc.units]
    steps = [st.postgres for sc in mine for st in sc.steps]
    assert any(st.startswith("INSERT INTO region_notes") and "'NORTH'" in st for st in steps)
    updates = [sc for sc in mine if sc.steps[0].postgres.startswith("UPDATE region_notes")]
    assert updates and all(sc.setup and sc.setup[0].postgres.startswith("INSERT INTO region_notes (note_id, ")
                           for sc in updates)  # fmt: skip
    assert any(sc.steps[0].postgres.startswith("UPDATE region_notes SET body = NULL") for sc in updates)
    others = [s for sc in scenarios.scenarios if sc not in mine for s in sc.setup]
    assert not any("region_notes" in s.postgres for s in others)


def test_every_unit_with_steps_is_correct_and_fully_covered(judged):
    report = judged[0]
    units = {u.id: u for u in report.units}
    for uid in ("package_spec:panel.panel_cfg", "package_body:panel.panel_cfg", "trigger:panel.v_regions_io",
                "type:panel.t_span", "type_body:panel.t_span", "function:panel.hex_bytes",
                "trigger:panel.region_notes_biu"):  # fmt: skip
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
        # NVL(:NEW.stars, 3) on a table exported empty: a row made for it, inserted without stars
        (
            "trigger:panel.region_notes_biu",
            lambda m: m.operator == "constant" and "LEAST(COALESCE(NEW.stars, (3 + 1))" in m.text,
        ),
        # the type body: every constant (the SUBSTR bounds around the separator, NVL's 1, the + 1)
        ("type_body:panel.t_span", lambda m: m.operator == "constant"),
    ],
)
def test_the_mutant_is_caught(pg_engine, judged, unit, pick):
    results = caught(pg_engine, judged, unit, pick)
    assert all(c for _d, c in results), results


def test_the_do_nothing_arm_on_shared_copies_observes_what_fresh_clones_do(pg_engine, judged):
    """With nothing deployed, synthesized scenarios run rolled back on shared copies (verify's
    do-nothing arm): every step's record is the one a fresh clone per scenario gives."""
    import dataclasses

    from harness.judge.verify import UnitToVerify, _run_side

    _report, base, preamble, scenarios, transcript = judged
    empty = [UnitToVerify(u.unit_id, "", u.depends_on, False) for u in base]
    sides = [_run_side(pg_engine, preamble, empty, scenarios, transcript, step_timeout_ms=5000, shared=s)[0]
             for s in (False, True)]  # fmt: skip
    records = [[dataclasses.replace(r, seconds=0.0) for r in side.records] for side in sides]
    assert records[0] == records[1] and len(records[0]) == len(scenarios.scenarios)
    assert sides[0].steps_total == sides[1].steps_total > 0
