"""Conversion throughput on the fixture corpus replicated to >= 2,000 units.

Prints units/s, lines/s and peak RSS for the whole batch path without deployment (read, split,
dependency order, convert, pglast check, write files and report). Where Debian's `ora2pg` is
installed it also times `ora2pg -i` (its offline file-conversion mode) on the same files and
prints the ratio. Not a test: speed is measured here, never asserted in the suite.

    python benchmarks/bench_convert.py [--units 2000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.source.reader import read_schema_dir

SCHEMAS = ROOT / "fixtures" / "schemas"


def build_corpus(dest: Path, min_units: int) -> tuple[int, int]:
    """Copy every fixture schema's files into dest/copy_NNN/<schema>/ until >= min_units units.

    The copies define the same object names again; the reader reports them as duplicates and
    still converts each one, so the work per unit is the same as for distinct objects."""
    per_copy = sum(len(read_schema_dir(d).units) for d in sorted(SCHEMAS.iterdir()) if d.is_dir())
    copies = -(-min_units // per_copy)
    for i in range(copies):
        for schema in sorted(p for p in SCHEMAS.iterdir() if p.is_dir()):
            shutil.copytree(schema, dest / f"copy_{i:03d}" / schema.name)
    return copies, per_copy * copies


def time_ora2pg(corpus: Path) -> float | None:
    exe = shutil.which("ora2pg")
    if exe is None:
        return None
    conf = corpus.parent / "ora2pg.conf"
    # Minimal config for file mode: no Oracle connection is made with -i.
    conf.write_text(
        "ORACLE_DSN dbi:Oracle:host=localhost;sid=none\nORACLE_USER none\nORACLE_PWD none\n"
        "PLSQL_PGSQL 1\nOUTPUT_DIR " + str(corpus.parent / "ora2pg_out") + "\n"
    )
    (corpus.parent / "ora2pg_out").mkdir(exist_ok=True)
    files = sorted(p for p in corpus.rglob("*") if p.is_file())
    t0 = time.perf_counter()
    failures = 0
    for i, f in enumerate(files):
        r = subprocess.run(
            [exe, "-c", str(conf), "-i", str(f), "-t", "FUNCTION", "-o", f"out_{i}.sql", "-q"],
            capture_output=True,
            text=True,
        )
        failures += r.returncode != 0
    elapsed = time.perf_counter() - t0
    print(f"ora2pg -i: {len(files)} files in {elapsed:.2f} s ({failures} exited non-zero)")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--units", type=int, default=2000)
    ap.add_argument("--keep", type=Path, help="keep the corpus and output here")
    ap.add_argument(
        "--workdir",
        type=Path,
        default=Path(".bench-work"),
        help="where the corpus and output go (default ./.bench-work; on the development machines "
        "/tmp writes 2,142 small files ~13x slower than the work disk, which would measure the disk)",
    )
    ap.add_argument("--no-ora2pg", action="store_true", help="skip the ora2pg comparison")
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    work = args.keep or Path(tempfile.mkdtemp(prefix="migrator-bench-", dir=args.workdir))
    corpus = work / "corpus"
    copies, expected = build_corpus(corpus, args.units)
    # Cold first: the corpus repeats the same text, so the per-run fragment memo would make the
    # replicated figure look better than a real schema of this size; the cold run is the headline.
    for label, memo in (("cold, fragment memo off", False), ("fragment memo on", True)):
        t0 = time.perf_counter()
        report = migrate(corpus, work / "out", MigrateOptions(schema="bench", force=True, progress=False, memo=memo))
        elapsed = time.perf_counter() - t0
        s = report.summary
        rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"corpus: {copies} copies of the fixture schemas, {s.units} units, {s.converted_lines} source lines")
        print(f"migrator [{label}] (read+split+order+convert+pglast check+write, no deploy): {elapsed:.2f} s")
        print(
            f"  {s.units / elapsed:.0f} units/s   {s.converted_lines / elapsed:.0f} lines/s   peak RSS {rss_mb:.0f} MiB"
        )
        print(f"  status: {s.by_status}  parses: {s.static_ok}/{s.units}")
    theirs = None if args.no_ora2pg else time_ora2pg(corpus)
    if theirs:
        print(f"ora2pg / migrator time ratio: {theirs / elapsed:.2f}")
    elif args.no_ora2pg:
        print("ora2pg comparison skipped (--no-ora2pg)")
    else:
        print("ora2pg not installed: no comparison (apt-get install ora2pg)")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
