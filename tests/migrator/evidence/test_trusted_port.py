"""Synthesized evidence recorded on a port a team wrote, which differs from the tool where a
faithful port may (issue 33): fixtures/reference/trusted_port reads the real clock (now(),
CURRENT_DATE, LOCALTIMESTAMP), raises plain P0001 errors, and declares its OUT parameter
`numeric` where the tool declares `bigint`.

- Frozen (libfaketime): the port lives at the scenarios' SYSDATE, every step is recorded, and each
  routine is judged `correct` — the P0001 errors compared by class and message.
- Real clock (what cannot be frozen): steps whose answer moves with the clock are marked
  clock-dependent, and no routine is ever `wrong` for the clock.
- Either way a conversion that is really wrong stays `wrong`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness.engines.frozen_clock import FrozenClockPostgres, unavailable_reason
from harness.ground_truth.scenarios import dump_scenarios, dump_transcript, load_transcript
from harness.ground_truth.trusted_port import record_reference
from migrator.batch.output import preamble_sql, required_extensions
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.evidence.synth import SynthOptions, synthesize

ROOT = Path(__file__).resolve().parents[3]
SRC = ROOT / "fixtures" / "schemas" / "trusted_port"
PORT = ROOT / "fixtures" / "reference" / "trusted_port"
ROUTINES = {"days_late", "loan_status", "open_loan", "return_loan"}
# CI installs libfaketime and sets MIGRATOR_REQUIRE_FAKETIME: there, a missing library fails instead
needs_faketime = pytest.mark.skipif(
    unavailable_reason() is not None and not os.environ.get("MIGRATOR_REQUIRE_FAKETIME"),
    reason=f"{unavailable_reason()}",
)


def _freeze(instant: str) -> FrozenClockPostgres:
    return FrozenClockPostgres(instant, required_extensions())


@pytest.fixture(scope="module")
def scenarios(pg_engine, tmp_path_factory):
    result = synthesize(SRC, SynthOptions(engine=pg_engine.admin_dsn(), progress=False))
    path = tmp_path_factory.mktemp("trusted_port") / "scenarios.yaml"
    dump_scenarios(result.scenarios, path)
    return result.scenarios, path


def _record(pg_engine, scenarios, tmp_path, freeze):
    rec = record_reference(pg_engine, PORT, scenarios[0], preamble=preamble_sql("trusted_port", []), freeze=freeze,
                           check_clock=True)  # fmt: skip
    dump_transcript(rec.transcript, tmp_path / "transcript.yaml")
    return rec, tmp_path / "transcript.yaml"


def _verdicts(pg_engine, scenarios, transcript, tmp_path, disabled=frozenset()):
    report = migrate(SRC, tmp_path / "out", MigrateOptions(
        deploy=pg_engine.admin_dsn(), verify=True, progress=False, disabled_rules=frozenset(disabled),
        scenarios=scenarios[1], transcript=transcript))  # fmt: skip
    return {u.name.split(".")[-1]: u for u in report.units if u.name.split(".")[-1] in ROUTINES}


@needs_faketime
def test_a_port_recorded_at_the_frozen_instant_confirms_every_routine(pg_engine, scenarios, tmp_path):
    rec, transcript = _record(pg_engine, scenarios, tmp_path, _freeze)
    assert rec.not_deployed == [] and rec.left_out == [] and rec.unrecorded == []
    assert rec.clock_dependent == []
    assert rec.transcript.provenance.clock.startswith("frozen at 2024-06-15 10:30:00")
    # every step of open_loan, whose OUT parameter the port declares numeric, is recorded
    calls = [sc for sc in scenarios[0].scenarios if any("open_loan" in u for u in sc.units)]
    assert calls and all(set(rec.transcript.outcomes[sc.id]) == {s.name for s in sc.steps} for sc in calls)
    # the port's plain P0001 errors are recorded as user-defined errors without a number
    assert rec.number_unknown > 0
    errors = [o.error for steps in rec.transcript.outcomes.values() for o in steps.values() if o.error]
    assert any(e.user_defined and e.code == "" and e.message == "Borrower name required" for e in errors)
    units = _verdicts(pg_engine, scenarios, transcript, tmp_path)
    assert set(units) == ROUTINES
    for name, unit in units.items():
        assert unit.category == "correct", (name, unit.verdict)
    assert "compared by class and message only" in units["open_loan"].verdict


def test_a_port_on_the_real_clock_is_never_wrong_for_the_clock(pg_engine, scenarios, tmp_path):
    rec, transcript = _record(pg_engine, scenarios, tmp_path, None)
    assert rec.not_deployed == [] and rec.left_out == [] and rec.unrecorded == []
    # days late counted from CURRENT_DATE, rows stamped with LOCALTIMESTAMP: answers that move
    assert any(s.startswith("function.days_late") for s in rec.clock_dependent)
    loaded = load_transcript(transcript)
    assert loaded.provenance.clock.startswith("real")
    assert loaded.clocks and set(loaded.clocks) <= set(loaded.outcomes)
    units = _verdicts(pg_engine, scenarios, transcript, tmp_path)
    assert set(units) == ROUTINES
    for name, unit in units.items():
        assert unit.category != "wrong", (name, unit.verdict)
    assert "clock-dependent" in units["days_late"].verdict


# Date arithmetic switched off: TRUNC(SYSDATE) - due and TRUNC(SYSDATE) + p_days are not Oracle's
# days any more — a real difference, which no clock handling may hide.
BROKEN = frozenset({"expr.date_arith"})


@needs_faketime
def test_a_really_wrong_conversion_stays_wrong_on_a_frozen_port(pg_engine, scenarios, tmp_path):
    _rec, transcript = _record(pg_engine, scenarios, tmp_path, _freeze)
    units = _verdicts(pg_engine, scenarios, transcript, tmp_path, BROKEN)
    assert any(u.category in ("wrong", "rejected") for u in units.values())
    assert all(units[n].category != "correct" for n in ("days_late", "open_loan")), {
        n: (u.category, u.verdict) for n, u in units.items()
    }


def test_a_really_wrong_conversion_is_never_correct_on_a_real_clock_port(pg_engine, scenarios, tmp_path):
    _rec, transcript = _record(pg_engine, scenarios, tmp_path, None)
    units = _verdicts(pg_engine, scenarios, transcript, tmp_path, BROKEN)
    assert all(units[n].category != "correct" for n in ("days_late", "open_loan")), {
        n: (u.category, u.verdict) for n, u in units.items()
    }


def test_record_exits_0_and_counts_the_errors_without_a_number(pg_engine, scenarios, tmp_path):
    out = tmp_path / "t.yaml"
    cmd = [sys.executable, "-m", "migrator.cli.main", "record", str(SRC), "--reference", str(PORT), "--scenarios",
           str(scenarios[1]), "--out", str(out), "--pg-dsn", pg_engine.admin_dsn(), "--clock", "real"]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "user-defined error with no number (plain P0001" in proc.stdout
    count = int(re.search(r"(\d+) step\(s\) a user-defined error", proc.stdout).group(1))
    recorded = load_transcript(out)
    assert count == sum(bool(o.error and o.error.user_defined) for s in recorded.outcomes.values() for o in s.values())
    assert count > 0 and "step clock-dependent" in proc.stdout


def test_a_port_reading_the_frozen_sysdate_is_judged_at_the_instant_it_was_given(pg_engine, scenarios, tmp_path):
    """The migration's own output as the port (it reads oracompat.sysdate(), not now()), recorded
    on the real clock: the instant the judge gives the converted code is the one the port read."""
    port = tmp_path / "port"
    migrate(SRC, port, MigrateOptions(deploy=pg_engine.admin_dsn(), progress=False))
    rec = record_reference(pg_engine, port, scenarios[0], preamble=preamble_sql("trusted_port", []),
                           check_clock=True)  # fmt: skip
    assert rec.not_deployed == [] and rec.left_out == [] and rec.clock_dependent == []
    dump_transcript(rec.transcript, tmp_path / "transcript.yaml")
    units = _verdicts(pg_engine, scenarios, tmp_path / "transcript.yaml", tmp_path)
    assert all(u.category != "wrong" for u in units.values()), {n: u.verdict for n, u in units.items()}
