"""Evidence for a fixture schema from its trusted port, shared by the silent-wrong tests
(test_subtle, test_silent_sql, test_silent_plsql): scenarios synthesized from the Oracle source
alone, recorded on the port (`record --reference`), then `migrate --verify` with rules switched off
or on."""

from __future__ import annotations

from pathlib import Path

from harness.ground_truth.scenarios import dump_scenarios, dump_transcript
from harness.ground_truth.trusted_port import record_reference
from migrator.batch.output import preamble_sql
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.batch.sandboxing import open_engine
from migrator.evidence.synth import SynthOptions, synthesize


def record_port_evidence(pg_engine, src: Path, port: Path, folder: Path) -> Path:
    """Write scenarios.yaml and transcript.yaml into `folder`; every step recorded on the port."""
    result = synthesize(src, SynthOptions(engine=pg_engine.admin_dsn(), progress=False))
    with open_engine(pg_engine.admin_dsn()) as engine:
        rec = record_reference(engine, port, result.scenarios, preamble=preamble_sql(src.name, []))
    assert rec.not_deployed == [] and rec.left_out == [] and rec.unrecorded == []
    dump_scenarios(result.scenarios, folder / "scenarios.yaml")
    dump_transcript(rec.transcript, folder / "transcript.yaml")
    return folder


def port_verdicts(pg_engine, src: Path, evidence: Path, out: Path, disabled=frozenset()) -> dict:
    """Unit name -> its report entry, judged against the port's recording."""
    report = migrate(src, out, MigrateOptions(
        deploy=pg_engine.admin_dsn(), verify=True, progress=False, disabled_rules=frozenset(disabled),
        scenarios=evidence / "scenarios.yaml", transcript=evidence / "transcript.yaml"))  # fmt: skip
    return {u.name.split(".")[-1]: u for u in report.units}
