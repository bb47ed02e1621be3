"""Conversion speed of a real code base, whole process against whole processes: ours vs ora2pg.

    python benchmarks/bench_vs_ora2pg.py [FOLDER] [--rounds 5] [--jobs 1] [--workers N] [--keep DIR]

FOLDER defaults to `../shared/realworld/alexandria` beside the checkout; when it is absent the
script says so and exits 0. Ours: one `migrator migrate FOLDER --out OUT --no-deploy --force`
process per round (start-up, imports, read, dependency order, catalog, convert, pglast check,
unit files, reports), with the default settings (memo on, workers chosen by size) unless
`--workers` is given. Peer: Debian's ora2pg in file mode (`-i`, no Oracle connection), one whole
process per file, typed per file: each file is run with the type its objects have (`-t PACKAGE`,
`FUNCTION`, `PROCEDURE`, `TRIGGER`, `TYPE`, `VIEW`, `TABLE`, `SEQUENCE`), read from its first
CREATE statement (the file's suffix only when it has none), `--jobs` processes at a time (default
1: below 200 units our conversion also runs in one process).

The arms alternate round by round (the order rotates), so a burst of load from elsewhere hits
each. Both wall-clock and CPU seconds (user + system of the whole process tree, from
`getrusage(RUSAGE_CHILDREN)`) are printed with min / median / max, and the ratio of medians for
each: on a shared machine whose load average is far above its core count the wall clock mostly
measures the queue for a core, while the CPU seconds are what each side costs. The load average
is printed before and after. Not a test: figures are printed, never asserted.

Bytecode: as bench_convert.py does, the checkout's packages are compiled first (an install
would have compiled them; development machines set PYTHONDONTWRITEBYTECODE=1).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FOLDER = ROOT.parent / "shared" / "realworld" / "alexandria"
MIGRATOR = [sys.executable, "-m", "migrator.cli.main"]

# The object a file creates, by its first CREATE statement (comments are not skipped: a CREATE
# inside a leading comment is rare, and a wrong type only makes ora2pg's run of that file cheaper).
_CREATE = re.compile(
    r"\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:NON)?EDITIONABLE\s+)?"
    r"(?:GLOBAL\s+TEMPORARY\s+)?(?:FORCE\s+|NO\s+FORCE\s+)?"
    r"(PACKAGE|FUNCTION|PROCEDURE|TRIGGER|TYPE|VIEW|MATERIALIZED\s+VIEW|TABLE|SEQUENCE)\b",
    re.IGNORECASE,
)
_BY_SUFFIX = {
    ".pks": "PACKAGE",
    ".pkb": "PACKAGE",
    ".pkg": "PACKAGE",
    ".fnc": "FUNCTION",
    ".prc": "PROCEDURE",
    ".trg": "TRIGGER",
    ".typ": "TYPE",
    ".tps": "TYPE",
    ".tpb": "TYPE",
    ".vw": "VIEW",
    ".tab": "TABLE",
    ".seq": "SEQUENCE",
}
_SOURCE_SUFFIXES = {*_BY_SUFFIX, ".sql"}


def ora2pg_type(path: Path) -> str | None:
    """The `-t` type for one file: its first CREATE's object kind, else its suffix's; None when
    the file creates nothing ora2pg's file mode converts."""
    m = _CREATE.search(path.read_text(errors="replace"))
    if m:
        kind = " ".join(m.group(1).upper().split())
        return "MVIEW" if kind == "MATERIALIZED VIEW" else kind
    return _BY_SUFFIX.get(path.suffix.lower())


def cpu_of_children() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def ours(folder: Path, out: Path, workers: int | None) -> tuple[float, float]:
    cmd = [*MIGRATOR, "migrate", str(folder), "--out", str(out), "--no-deploy", "--force", "--no-progress"]
    if workers is not None:
        cmd += ["--workers", str(workers)]
    c0, t0 = cpu_of_children(), time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall, cpu = time.perf_counter() - t0, cpu_of_children() - c0
    if r.returncode not in (0, 1):  # 1: some unit not fully converted, a normal outcome
        raise SystemExit(f"migrator failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return wall, cpu


def ora2pg_commands(folder: Path, work: Path) -> list[list[str]]:
    conf = work / "ora2pg.conf"
    out = work / "ora2pg_out"
    out.mkdir(parents=True, exist_ok=True)
    # file mode (-i) makes no Oracle connection; the DSN only has to be well-formed
    conf.write_text(
        "ORACLE_DSN dbi:Oracle:host=localhost;sid=none\nORACLE_USER none\nORACLE_PWD none\n"
        f"PLSQL_PGSQL 1\nPG_VERSION 15\nOUTPUT_DIR {out}\n"
    )
    cmds = []
    for f in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in _SOURCE_SUFFIXES):
        kind = ora2pg_type(f)
        if kind is not None:
            name = str(f.relative_to(folder)).replace(os.sep, "_")
            cmds.append(["ora2pg", "-c", str(conf), "-i", str(f), "-t", kind, "-o", f"{name}.sql", "-q"])
    return cmds


def ora2pg(cmds: list[list[str]], jobs: int) -> tuple[float, float, int]:
    def one(cmd: list[str]) -> int:
        return subprocess.run(cmd, capture_output=True, text=True).returncode

    c0, t0 = cpu_of_children(), time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        codes = list(pool.map(one, cmds))
    return time.perf_counter() - t0, cpu_of_children() - c0, sum(c != 0 for c in codes)


def spread(values: list[float]) -> str:
    return f"min {min(values):.2f} / median {statistics.median(values):.2f} / max {max(values):.2f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, nargs="?", default=DEFAULT_FOLDER)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1, help="ora2pg processes at a time (default 1)")
    ap.add_argument("--workers", type=int, default=None, help="our --workers (default: migrate's own choice)")
    ap.add_argument("--keep", type=Path, default=None, help="write both outputs here instead of a temporary folder")
    ap.add_argument("--no-compile", action="store_true", help="do not compile the checkout's bytecode first")
    args = ap.parse_args()
    if not args.folder.is_dir():
        print(f"{args.folder}: absent, nothing to measure")
        return 0
    if shutil.which("ora2pg") is None:
        print("ora2pg is not installed (Debian package `ora2pg`): nothing to compare with")
        return 0
    if not args.no_compile:
        for pkg in ("migrator", "harness", "knowledge_base"):
            if (ROOT / pkg).is_dir():
                subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / pkg)], capture_output=True)
    tmp = None if args.keep else tempfile.TemporaryDirectory(prefix="vs-ora2pg-")
    work = args.keep or Path(tmp.name)  # type: ignore[union-attr]
    work.mkdir(parents=True, exist_ok=True)
    cmds = ora2pg_commands(args.folder, work)
    kinds: dict[str, int] = {}
    for c in cmds:
        kinds[c[6]] = kinds.get(c[6], 0) + 1
    print(f"{args.folder}: {len(cmds)} files for ora2pg ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})")
    print(f"load average before: {load()} on {os.cpu_count()} cores")
    ours(args.folder, work / "ours", args.workers)  # the output folder made once: later runs rewrite it
    wall: dict[str, list[float]] = {"ours": [], "ora2pg": []}
    cpu: dict[str, list[float]] = {"ours": [], "ora2pg": []}
    failed = 0
    for r in range(args.rounds):
        for arm in ["ours", "ora2pg"] if r % 2 == 0 else ["ora2pg", "ours"]:
            if arm == "ours":
                w, c = ours(args.folder, work / "ours", args.workers)
            else:
                w, c, failed = ora2pg(cmds, args.jobs)
            wall[arm].append(w)
            cpu[arm].append(c)
        print(
            f"round {r + 1}: ours {wall['ours'][-1]:.2f} s wall, {cpu['ours'][-1]:.2f} s CPU; "
            f"ora2pg {wall['ora2pg'][-1]:.2f} s wall, {cpu['ora2pg'][-1]:.2f} s CPU; load {load()}",
            flush=True,
        )
    print(f"load average after: {load()}")
    for what, d in (("wall", wall), ("CPU", cpu)):
        print(f"{what:>4}: ours {spread(d['ours'])}; ora2pg typed per file {spread(d['ora2pg'])}")
    wr = statistics.median(wall["ora2pg"]) / statistics.median(wall["ours"])
    cr = statistics.median(cpu["ora2pg"]) / statistics.median(cpu["ours"])
    if failed:
        print(f"ora2pg exited non-zero on {failed} of {len(cmds)} files (last round)")
    print(
        f"headline: ora2pg / ours = {wr:.1f}x wall clock, {cr:.1f}x CPU (medians of {args.rounds} rounds, "
        f"ora2pg {args.jobs} at a time) [goal >= 10x: {'met' if min(wr, cr) >= 10 else 'missed'}]"
    )
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
