"""Verification speed on the embedded PostgreSQL: per-unit time (median, p95) and corpus wall time.

Per unit: the time of the scenarios that judge it (wait for its fresh clone of the deployed
template, run the steps; clones are made and dropped in the background), a scenario judging
several units shared between them; measured after the server has started. Bar: median <= 100 ms.

    python benchmarks/bench_verify.py [fixtures/schemas/hr_payroll ...]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.postgres import EmbeddedPostgres
from harness.scenarios import load_scenarios, load_transcript
from harness.verify import UnitToVerify, verify
from migrator.batch.output import PREAMBLE, required_extensions
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.cli.commands import default_evidence


def main() -> None:
    dirs = [Path(a) for a in sys.argv[1:]] or sorted(p for p in (ROOT / "fixtures" / "schemas").iterdir() if p.is_dir())
    per_unit: list[float] = []
    wall = 0.0
    with EmbeddedPostgres(extensions=required_extensions()) as engine:
        for src in dirs:
            schema = src.name.lower()
            scen, trans = default_evidence(src, schema)
            out = Path(tempfile.mkdtemp(prefix="bench-verify-")) / schema
            report = migrate(src, out, MigrateOptions(force=True, progress=False))  # convert only
            units = [
                UnitToVerify(u.id, (out / u.output).read_text(encoding="utf-8"), tuple(u.depends_on), bool(u.static_ok))
                for u in report.units
            ]
            scenarios = load_scenarios(scen)
            t0 = time.perf_counter()
            result = verify(
                engine,
                (out / PREAMBLE).read_text(encoding="utf-8"),
                units,
                scenarios,
                load_transcript(trans),
                do_nothing=False,
            )
            elapsed = time.perf_counter() - t0
            wall += elapsed
            judged = {}
            for s in scenarios.scenarios:
                # A scenario that judges several units (a package spec and body) is run once:
                # its time is shared between them, not counted once per unit.
                share = result.agent.scenario_seconds.get(s.id, 0.0) / len(s.units)
                for uid in s.units:
                    judged[uid] = judged.get(uid, 0.0) + share
            per_unit += judged.values()
            print(
                f"{schema}: {len(units)} units deployed, {len(judged)} judged by {len(scenarios.scenarios)} scenarios "
                f"in {elapsed:.2f} s (deploy + reference check + scenarios)"
            )
    q = statistics.quantiles(per_unit, n=20)
    print(
        f"verification time per judged unit: median {1000 * statistics.median(per_unit):.0f} ms, "
        f"p95 {1000 * q[18]:.0f} ms over {len(per_unit)} units; corpus wall time {wall:.1f} s"
    )


if __name__ == "__main__":
    main()
