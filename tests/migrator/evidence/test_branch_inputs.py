"""Synthesized steps reach the branches a schema's conditions guard (issue 33, coverage).

fixtures/schemas/branch_inputs is written so that the export's data alone reaches none of them:
a move into the unit a crew member is already in (a parameter against the row's current value),
two rows compared (the same unit, the same band), a unit of 0 or NULL meaning "all" beside a valid
unit and one nobody works in, simple and searched CASE arms (BETWEEN ranges), IN lists, a part
RETIRED or ON_HOLD where every part is ACTIVE (and a trigger refuses retiring one with stock), a
wage rise above a cap, a retired part brought back. Recorded on its trusted port
(fixtures/reference/branch_inputs), every routine and trigger is fully covered and `correct`."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.engines.frozen_clock import FrozenClockPostgres, unavailable_reason
from harness.ground_truth.scenarios import dump_scenarios, dump_transcript
from harness.ground_truth.trusted_port import record_reference
from migrator.batch.output import preamble_sql, required_extensions
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.evidence.synth import SynthOptions, synthesize

ROOT = Path(__file__).resolve().parents[3]
SRC = ROOT / "fixtures" / "schemas" / "branch_inputs"
PORT = ROOT / "fixtures" / "reference" / "branch_inputs"
JUDGED = {"move_crew", "raise_unit", "pair_note", "band_title", "wage_bracket", "take_part", "crew_wage_audit",
          "unit_roster", "reorder_part", "parts_state_flow", "wage_change",
          "pick_status"}  # fmt: skip

pytestmark = pytest.mark.slow


def test_every_branch_is_reached_and_every_unit_confirmed(pg_engine, tmp_path):
    result = synthesize(SRC, SynthOptions(engine=pg_engine.admin_dsn(), progress=False))
    extensions = required_extensions()
    # the port reads no clock: frozen or not, its answers are the same
    freeze = (lambda instant: FrozenClockPostgres(instant, extensions)) if unavailable_reason() is None else None
    rec = record_reference(pg_engine, PORT, result.scenarios, preamble=preamble_sql("branch_inputs", []),
                           freeze=freeze, check_clock=True)  # fmt: skip
    assert rec.not_deployed == [] and rec.left_out == [] and rec.unrecorded == [] and rec.clock_dependent == []
    dump_scenarios(result.scenarios, tmp_path / "s.yaml")
    dump_transcript(rec.transcript, tmp_path / "t.yaml")
    report = migrate(SRC, tmp_path / "out", MigrateOptions(
        deploy=pg_engine.admin_dsn(), verify=True, progress=False,
        scenarios=tmp_path / "s.yaml", transcript=tmp_path / "t.yaml"))  # fmt: skip
    units = {u.name.split(".")[-1]: u for u in report.units if u.steps}
    assert set(units) == JUDGED, sorted(units)
    for name, unit in units.items():
        assert unit.coverage_percent == 100, (name, unit.coverage)
        assert unit.category == "correct", (name, unit.verdict)
