"""Scenario synthesis on the fixture schemas: every routine, package member, view and trigger
gets steps; coverage decides which are kept; the file is deterministic and readable."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.scenarios import ScenarioFile, dump_scenarios, load_scenarios
from migrator.evidence.synth import SynthOptions, synthesize

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "schemas"
# Share of targets whose PL/pgSQL the kept steps execute completely (views count as complete):
# measured with the default budget; a drop below is a regression of the synthesis.
FULLY_COVERED_AT_LEAST = {"hr_payroll": 0.85, "banking": 0.75, "inventory": 0.80}


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
