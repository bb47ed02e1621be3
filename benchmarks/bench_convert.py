"""Conversion speed, whole process against whole process: `migrator migrate --no-deploy` vs ora2pg.

Input: a generated ERP-style export (benchmarks/gen_schema.py): every object distinct, one kind
of object per file, named as a real export names them. Ours: one `migrator migrate SRC --out OUT
--no-deploy` process per run (start-up, imports, read, split, dependency order, convert, pglast
check of every output, unit files, reports), memo off (`--no-memo`, the headline: no fragment is
reused) and memo on, each into a fresh folder. Peer: Debian's ora2pg in file mode, one process per
file with the object type that matches the file (`-t TABLE`, `SEQUENCE`, `VIEW`, `PACKAGE`,
`FUNCTION`, `PROCEDURE`, `TRIGGER`, `TYPE`), as many at a time as we use conversion processes.
The arms are interleaved round by round (the order rotates), so a burst of load from elsewhere
hits each; the first round is reported as cold (a fresh output folder), the others as warm (the same
folder again with --force, unit files rewritten in place; min / median / max; the headline is the
warm median). The ratio is taken per round. Not a test: figures are printed, never asserted.

Bytecode: an installed package runs from compiled bytecode (pip compiles it at install), but the
development machines set PYTHONDONTWRITEBYTECODE=1, so a source checkout recompiles every one
of its ~120 modules in every process (~0.15 s of each run). The script compiles the checkout's
packages first (`python -m compileall`, into the git-ignored __pycache__ folders), as an
install would; `--no-compile` measures the source-compiling runs instead (and removes nothing).

    python benchmarks/bench_convert.py [--modules 60] [--rounds 4] [--workers 2] [--keep]
                                       [--no-ora2pg] [--no-compile]

Independent whole-process check (the commands are printed at the end, with the corpus kept):
    cd ROOT && hyperfine -w 1 -r 5 'python -m migrator.cli.main migrate CORPUS --out WORK/out-off --force --no-deploy --no-memo --workers 2'
    hyperfine -r 3 'bash WORK/ora2pg_all.sh'
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from gen_schema import ORA2PG_TYPE, generate

MIGRATOR = [sys.executable, "-m", "migrator.cli.main"]


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def ours(corpus: Path, out: Path, memo: bool, workers: int) -> tuple[float, str]:
    """One whole `migrate` process. The first run of an arm writes into a fresh folder (cold);
    later runs rerun into the same folder with --force, as a user re-running does: unit files are
    rewritten in place. (Deleting the folder between runs would make the next run's every file
    creation skip the inodes just freed, on this machine's journal-less ext4: 0.7 ms instead of
    0.06 ms per file, a figure that then depends on what was deleted before, not on us.)"""
    cmd = [*MIGRATOR, "migrate", str(corpus), "--out", str(out), "--no-deploy", "--workers", str(workers), "--force"]
    cmd.append("--memo" if memo else "--no-memo")
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - t0
    if r.returncode not in (0, 1):
        raise SystemExit(f"migrator failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return elapsed, r.stdout.splitlines()[0] if r.stdout else ""


def ora2pg_setup(work: Path, corpus: Path, jobs: int) -> tuple[Path, list[list[str]]]:
    conf = work / "ora2pg.conf"
    out = work / "ora2pg_out"
    out.mkdir(parents=True, exist_ok=True)
    # file mode (-i) makes no Oracle connection; the DSN only has to be well-formed
    conf.write_text(
        "ORACLE_DSN dbi:Oracle:host=localhost;sid=none\nORACLE_USER none\nORACLE_PWD none\n"
        f"PLSQL_PGSQL 1\nPG_VERSION 15\nOUTPUT_DIR {out}\n"
    )
    files = sorted(p for p in corpus.iterdir() if p.is_file())
    cmds = [
        ["ora2pg", "-c", str(conf), "-i", str(f), "-t", ORA2PG_TYPE[f.suffix], "-o", f"{f.name}.sql", "-q"]
        for f in files
    ]
    (work / "ora2pg_cmds.txt").write_text("".join(" ".join(c) + "\n" for c in cmds))
    script = work / "ora2pg_all.sh"
    script.write_text(
        f"#!/bin/bash\n# one ora2pg per file, {jobs} at a time (the independent whole-process check)\n"
        f"xargs -P {jobs} -d '\\n' -I CMD sh -c CMD < {work / 'ora2pg_cmds.txt'}\n"
    )
    return out, cmds


def ora2pg(cmds: list[list[str]], jobs: int) -> tuple[float, int]:
    def one(cmd):
        return subprocess.run(cmd, capture_output=True, text=True).returncode

    t0 = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        codes = list(pool.map(one, cmds))
    return time.perf_counter() - t0, sum(c != 0 for c in codes)


def ora2pg_startup(work: Path, conf: Path) -> float:
    empty = work / "empty.sql"
    empty.write_text("\n")
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run(
            ["ora2pg", "-c", str(conf), "-i", str(empty), "-t", "TABLE", "-o", "e.sql", "-q"], capture_output=True
        )
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def spread(values: list[float], unit: str = "s") -> str:
    return f"min {min(values):.2f} / median {statistics.median(values):.2f} / max {max(values):.2f} {unit}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modules", type=int, default=60, help="modules in the generated export (about 250 lines each)")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2, help="our conversion processes = ora2pg processes at a time")
    ap.add_argument(
        "--workdir",
        type=Path,
        default=Path(".bench-work"),
        help="where corpus and outputs go (default ./.bench-work: /tmp on the development machines is a slow disk)",
    )
    ap.add_argument("--keep", action="store_true", help="keep the corpus and outputs (for hyperfine)")
    ap.add_argument("--no-ora2pg", action="store_true")
    ap.add_argument(
        "--no-compile",
        action="store_true",
        help="do not compile the checkout's bytecode first (every run then compiles its sources)",
    )
    args = ap.parse_args()
    if not args.no_compile:
        packages = ["migrator", "harness", "knowledge_base"]
        subprocess.run([sys.executable, "-m", "compileall", "-q", *packages], cwd=ROOT, check=True, capture_output=True)
    args.workdir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="bench-convert-", dir=args.workdir)).resolve()
    corpus = work / "corpus" / "erp"
    counts = generate(corpus, args.modules)
    print(f"load before: {uptime()}")
    print(f"corpus: {counts['files']} files, {counts['lines']} non-blank lines ({args.modules} generated modules)")
    bytecode = "sources compiled by every run" if args.no_compile else "bytecode compiled first, as installed"
    print(f"ours: {bytecode}")
    have_ora2pg = shutil.which("ora2pg") is not None and not args.no_ora2pg
    if have_ora2pg:
        o2p_out, cmds = ora2pg_setup(work, corpus, args.workers)
        startup = ora2pg_startup(work, work / "ora2pg.conf")
    arms = ["off", "on"] + (["ora2pg"] if have_ora2pg else [])
    times: dict[str, list[float]] = {a: [] for a in arms}
    summary = ""
    for r in range(args.rounds):
        order = arms[r % len(arms) :] + arms[: r % len(arms)]
        for arm in order:
            if arm == "ora2pg":
                elapsed, failed = ora2pg(cmds, args.workers)
                note = f"{failed} non-zero exits"
            else:
                elapsed, summary = ours(corpus, work / f"out-{arm}", arm == "on", args.workers)
                note = summary
            times[arm].append(elapsed)
            print(f"round {r + 1} {arm:>6}: {elapsed:6.2f} s  {note}")
    lines = counts["lines"]
    label = {
        "off": "migrator, memo off",
        "on": "migrator, memo on",
        "ora2pg": f"ora2pg -t <type>, {args.workers} at a time",
    }
    print()
    for arm in arms:
        t = times[arm]
        warm = t[1:] or t
        print(f"{label[arm]:<28} cold {t[0]:6.2f} s; warm {spread(warm)}; {lines / statistics.median(t):,.0f} lines/s")
    if have_ora2pg:
        ratios = [o / m for o, m in zip(times["ora2pg"], times["off"])]
        print(f"ora2pg / migrator (memo off) per round: {spread(ratios, 'x')}")
        print(
            f"ora2pg start-up per process: {startup:.2f} s x {len(cmds)} files = {startup * len(cmds) / args.workers:.1f} s "
            f"of its wall time at {args.workers} at a time"
        )
        made = sum(1 for p in o2p_out.glob("*.sql") if "CREATE" in p.read_text(errors="replace"))
        print(f"ora2pg wrote a CREATE statement for {made} of {len(cmds)} files")
    print(f"load after: {uptime()}  (cores: {os.cpu_count()})")
    median_off = statistics.median(times["off"][1:] or times["off"])
    rate = lines / median_off
    headline = (
        f"HEADLINE migrator migrate --no-deploy --no-memo --force, whole process, {args.workers} workers ({bytecode}): "
        f"warm median {median_off:.2f} s for {lines:,} non-blank lines = {rate:,.0f} lines/s "
        f"[goal >= 10,000: {'met' if rate >= 10000 else f'missed by {10000 / rate:.1f}x'}]"
    )
    if have_ora2pg:
        ratio = statistics.median(ratios)
        headline += f"; ora2pg typed per file {statistics.median(times['ora2pg']):.2f} s, ratio {ratio:.1f}x [goal >= 10x: {'met' if ratio >= 10 else 'missed'}]"
    print(headline)
    if args.keep:
        print("\nindependent check (whole processes):")
        # this checkout's code, run as the arms ran it (a `migrator` script may belong to another install)
        print(
            f"  cd {ROOT} && hyperfine -w 1 -r 5 "
            f"'{sys.executable} -m migrator.cli.main migrate {corpus} --out {work}/out-off --force --no-deploy "
            f"--no-memo --workers {args.workers}'"
        )
        if have_ora2pg:
            print(f"  hyperfine -r 3 'bash {work}/ora2pg_all.sh'")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
