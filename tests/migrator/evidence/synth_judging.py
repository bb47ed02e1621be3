"""Judging a small test schema as benchmarks/mutation_harness.py --synth does: scenarios
synthesized from its Oracle source, recorded on the migration's own output (the trusted port),
and each mutant of a unit (harness.judge_quality.mutation) verified with them on a real PostgreSQL. Shared by
the tests of the crew and ledger schemas; also the DataView those tests build by hand."""

from __future__ import annotations

from pathlib import Path

from harness.ground_truth.scenarios import dump_scenarios, dump_transcript, load_scenarios, load_transcript
from harness.ground_truth.trusted_port import record_reference
from harness.judge.verify import UnitToVerify, verify
from harness.judge_quality.mutation import mutants
from migrator.batch.output import PREAMBLE, preamble_sql
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.batch.sandboxing import open_engine
from migrator.evidence.synth import SynthOptions, synthesize
from migrator.evidence.values import DataView


def judge_schema(pg_engine, src: Path, schema: str, work: Path):
    """(report, units as verified, preamble, scenarios, transcript) of `src` with synthesized evidence."""
    result = synthesize(src, SynthOptions(engine=pg_engine.admin_dsn(), progress=False))
    port_out = work / "port-out"
    converted = migrate(src, port_out, MigrateOptions(progress=False))
    port = work / "port"
    port.mkdir()
    for n, u in enumerate(converted.units, 1):
        (port / f"{n:04d}.sql").write_text((port_out / u.output).read_text())
    with open_engine(pg_engine.admin_dsn()) as engine:
        rec = record_reference(engine, port, result.scenarios, preamble=preamble_sql(schema, []))
    dump_scenarios(result.scenarios, work / "s.yaml")
    dump_transcript(rec.transcript, work / "t.yaml")
    out = work / "out"
    report = migrate(src, out, MigrateOptions(deploy=pg_engine.admin_dsn(), verify=True, progress=False,
                                              scenarios=work / "s.yaml", transcript=work / "t.yaml"))  # fmt: skip
    base = [UnitToVerify(u.id, (out / u.output).read_text(), tuple(u.depends_on), bool(u.static_ok))
            for u in report.units]  # fmt: skip
    return report, base, (out / PREAMBLE).read_text(), load_scenarios(work / "s.yaml"), load_transcript(work / "t.yaml")


def caught(pg_engine, judged, unit_id: str, pick) -> list[tuple[str, bool]]:
    """Each picked mutant of `unit_id` (a `correct` unit) and whether its scenarios catch it."""
    report, base, preamble, scenarios, transcript = judged
    assert {u.id: u.category for u in report.units}[unit_id] == "correct"
    index = next(i for i, u in enumerate(base) if u.unit_id == unit_id)
    own = scenarios.model_copy(update={"scenarios": [s for s in scenarios.scenarios if unit_id in s.units]})
    out = []
    for m in mutants(base[index].sql, per_operator=99):
        if not pick(m):
            continue
        units = list(base)
        units[index] = UnitToVerify(unit_id, m.text, base[index].depends_on, True)
        verdict = verify(pg_engine, preamble, units, own, transcript, do_nothing=False).agent.verdicts[index]
        out.append((m.description, verdict.category != "correct"))
    assert out, unit_id
    return out


def data_view(rows: dict[str, list[dict]], keys=None, uniques=None, foreign=None) -> DataView:
    """A DataView over rows given as dicts (table -> rows), with the keys given."""

    def distinct(table, column):
        out = []
        for r in rows.get(table, []):
            if r.get(column) is not None and r[column] not in out:
                out.append(r[column])
        return out

    view = DataView(distinct)
    view.columns = {t: list(rs[0]) for t, rs in rows.items() if rs}
    view.keys = keys or {}
    view.uniques = uniques or {}
    view.foreign = foreign or {}
    view.rows = rows
    return view
