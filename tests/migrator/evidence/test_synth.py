"""Scenario synthesis on the fixture schemas: every routine, package member, view and trigger
gets steps; coverage decides which are kept; the file is deterministic and readable."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.ground_truth.scenarios import ScenarioFile, dump_scenarios, load_scenarios
from migrator.evidence.synth import SynthOptions, synthesize

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "schemas"
# Share of targets whose PL/pgSQL the kept steps execute completely (views count as complete):
# measured with the default budget; a drop below is a regression of the synthesis.
# (measured: hr_payroll 33/35, banking 32/35, inventory 33/35; utilities 79/83 is not run here: 50 s)
FULLY_COVERED_AT_LEAST = {"hr_payroll": 0.90, "banking": 0.90, "inventory": 0.90}


@pytest.fixture(scope="module", params=sorted(FULLY_COVERED_AT_LEAST))
def synthesized(request, pg_engine):
    result = synthesize(FIXTURES / request.param, SynthOptions(engine=pg_engine.admin_dsn(), progress=False))
    return request.param, result


def test_every_target_gets_steps(synthesized):
    schema, result = synthesized
    assert result.targets, schema
    no_steps = [(t.target, t.skipped) for t in result.targets if t.kept == 0]
    assert no_steps == []
    units = {u for sc in result.scenarios.scenarios for u in sc.units}
    assert units >= {u for t in result.targets for u in t.units}


def test_coverage_guides_the_steps(synthesized):
    schema, result = synthesized
    full = [t for t in result.targets if t.probes == 0 or t.covered == t.probes]
    share = len(full) / len(result.targets)
    assert share >= FULLY_COVERED_AT_LEAST[schema], [(t.target, t.uncovered) for t in result.targets if t not in full]
    assert sum(t.kept for t in result.targets) < sum(t.tried for t in result.targets)  # selection happened


def test_the_file_round_trips_and_freezes_the_clock(synthesized, tmp_path):
    _, result = synthesized
    path = tmp_path / "s.yaml"
    dump_scenarios(result.scenarios, path)
    again = load_scenarios(path)
    assert again == result.scenarios
    assert again.synthesis is not None and again.synthesis.budget_steps == 32
    assert all(sc.fixed_date for sc in again.scenarios)
    assert ": |-\n" in path.read_text()  # multi-line SQL as literal blocks


def test_synthesis_is_deterministic(pg_engine):
    runs = [synthesize(FIXTURES / "hr_payroll", SynthOptions(engine=pg_engine.admin_dsn(), progress=False,
                                                              budget_steps=8)) for _ in range(2)]  # fmt: skip
    strip = [r.scenarios.model_copy(update={"synthesis": None}) for r in runs]
    assert strip[0] == strip[1]
    assert isinstance(strip[0], ScenarioFile)


def test_synthesized_correct_is_never_wrong_by_the_hand_written_evidence(synthesized, pg_engine, tmp_path):
    """Soundness against the other evidence: record the synthesized steps on the migration's own
    output (a port of what the rules produce), judge with them, and check every unit they call
    correct against the hand-written scenarios and transcripts of the same schema."""
    from harness.ground_truth.scenarios import dump_transcript
    from harness.ground_truth.trusted_port import record_reference
    from migrator.batch.output import preamble_sql
    from migrator.batch.pipeline import MigrateOptions, migrate
    from migrator.batch.sandboxing import open_engine

    schema, result = synthesized
    src = FIXTURES / schema
    converted = migrate(src, tmp_path / "conv", MigrateOptions(progress=False))
    port = tmp_path / "port"
    port.mkdir()
    for n, u in enumerate(converted.units, 1):
        (port / f"{n:04d}.sql").write_text((tmp_path / "conv" / u.output).read_text())
    packages = sorted({u.name for u in converted.units if u.kind == "package_spec"})
    with open_engine(pg_engine.admin_dsn()) as engine:
        rec = record_reference(engine, port, result.scenarios, preamble=preamble_sql(schema, packages))
    dump_scenarios(result.scenarios, tmp_path / "s.yaml")
    dump_transcript(rec.transcript, tmp_path / "t.yaml")
    opts = dict(deploy=pg_engine.admin_dsn(), verify=True, progress=False)
    synth = migrate(src, tmp_path / "synth", MigrateOptions(**opts, scenarios=tmp_path / "s.yaml",
                                                            transcript=tmp_path / "t.yaml"))  # fmt: skip
    hand = migrate(src, tmp_path / "hand", MigrateOptions(
        **opts, scenarios=FIXTURES.parent / "scenarios" / f"{schema}.yaml",
        transcript=FIXTURES.parent / "transcripts" / f"{schema}.yaml"))  # fmt: skip
    by_hand = {u.id: u.category for u in hand.units}
    correct = [u.id for u in synth.units if u.category == "correct"]
    assert len(correct) >= 10
    assert [u for u in correct if by_hand[u] == "wrong"] == []
    assert all(u.category != "wrong" for u in synth.units)  # the port is this very output


def test_no_step_keeps_an_answer_oracle_cannot_give(pg_engine, tmp_path):
    """A width of 99,999,999 is a fine boundary value for a NUMBER(8), but LPAD to it returns
    100 MB in PostgreSQL where Oracle raises: such a step is never kept (it once put 100 MB into
    hr_payroll's transcript)."""
    from migrator.evidence.synth import ORACLE_MAX_TEXT

    src = tmp_path / "pad"
    src.mkdir()
    (src / "pad_to.fnc").write_text(
        "CREATE OR REPLACE FUNCTION pad_to(p_amount IN NUMBER, p_width IN PLS_INTEGER DEFAULT 14) RETURN VARCHAR2 IS\n"
        "BEGIN\n  RETURN LPAD(TO_CHAR(NVL(p_amount, 0)), p_width, ' ');\nEND;\n/\n"
    )
    result = synthesize(src, SynthOptions(engine=pg_engine.admin_dsn(), progress=False))
    path = tmp_path / "s.yaml"
    dump_scenarios(result.scenarios, path)
    assert path.stat().st_size < 100_000
    calls = [st.postgres for sc in result.scenarios.scenarios for st in sc.steps]
    assert calls and not any("p_width => 99999999" in c for c in calls)
    assert ORACLE_MAX_TEXT == 32767


def test_the_data_copied_once_moves_keys_and_the_foreign_keys_into_them():
    """A child's foreign key is moved as its parent's key is, under the child's own column name;
    a key no foreign key moves is moved by a power of ten above its values, a unique text's first
    character made 'Z'; parents are copied first."""
    from migrator.evidence.candidates import copies
    from migrator.evidence.targets import Target
    from migrator.evidence.values import DataView

    data = DataView(lambda _t, _c: None)
    data.columns = {"parent": ["pid", "code"], "child": ["cid", "parent_ref", "qty"]}
    data.keys = {"parent": ["pid"], "child": ["cid"]}
    data.uniques = {"parent": [["code"]]}
    data.foreign = {"child": [(["parent_ref"], "parent", ["pid"])]}
    data.rows = {"parent": [{"pid": 7, "code": "AB1"}], "child": [{"cid": 120, "parent_ref": 7, "qty": 1}]}
    fams = {"parent": {"pid": "number", "code": "text"},
            "child": {"cid": "number", "parent_ref": "number", "qty": "number"}}  # fmt: skip
    target = Target("function", ("f",), "f", "s", "f", reads={"child", "parent"})
    got = [st.postgres for st in copies(target, data, lambda t: fams.get(t, {}))]
    assert got == [
        "INSERT INTO parent (pid, code) SELECT pid + 10, 'Z' || SUBSTR(code, 2) FROM parent",
        "INSERT INTO child (cid, parent_ref, qty) SELECT cid + 1000, parent_ref + 10, qty FROM child",
    ]
