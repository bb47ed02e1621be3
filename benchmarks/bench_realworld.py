"""How much of real code bases deploys: the per-code-base table and the top causes, in one command.

    python benchmarks/bench_realworld.py [--root ../shared/realworld] [--only alexandria,semver] [--keep DIR]

Each code base (a folder under the root; a folder of schema folders such as `sample_schemas` is
migrated as one multi-schema run, with a line per schema) is migrated with deploy on the embedded PostgreSQL (`migrator migrate
SRC --out OUT --force`). A unit counts as "deployed fully converted" when the rules converted all of
it (status `converted`: nothing marked unconverted) and PostgreSQL accepted it. The causes are read
from each `report.json`: every unit that did not deploy fully converted is put under one reason, the
first of: the construct it could not convert, its own deploy error (normalised: names and numbers
taken out), the unit that blocked it. Nothing is asserted: this prints figures. Where the root is
absent (a checkout without `../shared/realworld`) it says so and exits 0.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_REALWORLD = ROOT.parent / "shared" / "realworld"

_QUOTED = re.compile(r'"[^"]*"|\'[^\']*\'')
_NUMBER = re.compile(r"\b\d+\b")


def code_bases(root: Path, only: set[str]) -> list[tuple[str, Path, str | None]]:
    """(label, folder, schema) per run; a folder holding only folders is a multi-schema export,
    migrated as one run (schema None: each subfolder's objects are owned by its own schema)."""
    runs: list[tuple[str, Path, str | None]] = []
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        if only and d.name not in only:
            continue
        subdirs = sorted(p for p in d.iterdir() if p.is_dir())
        if subdirs and not any(
            p.suffix.lower() in {".sql", ".pks", ".pkb", ".pkg"} for p in d.iterdir() if p.is_file()
        ):
            runs.append((d.name, d, None))
        else:
            runs.append((d.name, d, d.name))
    return runs


def reason(unit: dict) -> str:
    """One reason a unit did not deploy fully converted."""
    if unit.get("error"):
        return "conversion error: " + _normal(unit["error"])
    if unit.get("unconverted"):
        first = unit["unconverted"][0]
        construct = (
            first.get("construct_name") or first.get("construct", "?") if isinstance(first, dict) else str(first)
        )
        return "not converted: " + _normal(construct)
    if unit.get("static_ok") is False:
        return "parse check: " + _normal(unit.get("static_error") or "")
    if unit.get("blocked_by"):
        return "blocked by a unit that did not deploy"
    if unit.get("deploy_error"):
        return "deploy: " + _normal(unit["deploy_error"])
    return "not deployed (no reason recorded)"


def _normal(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    line = _QUOTED.sub("…", line)
    return _NUMBER.sub("N", line)[:110]


def measure(label: str, src: Path, schema: str | None, out: Path) -> dict:
    started = time.perf_counter()
    cmd = [sys.executable, "-m", "migrator.cli.main", "migrate", str(src), "--out", str(out)]
    cmd += ["--force", "--no-progress"]
    cmd += ["--schema", schema] if schema is not None else ["--multi-schema"]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - started
    report = out / "report.json"
    if not report.exists():
        return {"label": label, "crash": (proc.stderr or proc.stdout)[-2000:], "seconds": seconds}
    units = json.loads(report.read_text())["units"]
    non_data = [u for u in units if u["kind"] != "data"]
    full = [u for u in units if u["status"] == "converted" and u.get("deployed")]
    causes = collections.Counter(reason(u) for u in units if not (u["status"] == "converted" and u.get("deployed")))
    traceback = "Traceback (most recent call last)" in proc.stderr
    per_schema: dict[str, list[int]] = {}  # schema -> [non-data units, of them deployed fully converted]
    for u in non_data:
        owner = u["id"].split(":", 1)[1].split(".", 1)[0]
        counts = per_schema.setdefault(owner, [0, 0])
        counts[0] += 1
        counts[1] += u["status"] == "converted" and bool(u.get("deployed"))
    return {
        "per_schema": per_schema if schema is None else {},
        "label": label,
        "units": len(units),
        "non_data": len(non_data),
        "deployed": sum(1 for u in units if u.get("deployed")),
        "full": len(full),
        "full_non_data": sum(1 for u in full if u["kind"] != "data"),
        "causes": causes,
        "exit": proc.returncode,
        "traceback": traceback,
        "seconds": seconds,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=DEFAULT_REALWORLD)
    ap.add_argument("--only", default="", help="comma-separated code base names")
    ap.add_argument("--keep", type=Path, help="keep the output folders here")
    ap.add_argument("--top", type=int, default=15, help="how many causes to list")
    ap.add_argument("--json", type=Path, help="write the figures as JSON")
    args = ap.parse_args()
    if not args.root.is_dir():
        print(f"no real-world code bases at {args.root}: nothing to measure")
        return 0
    only = {s for s in args.only.split(",") if s}
    tmp = tempfile.TemporaryDirectory(prefix="realworld-")
    base = args.keep or Path(tmp.name)
    results = []
    for label, src, schema in code_bases(args.root, only):
        results.append(measure(label, src, schema, base / label.replace("/", "_")))
        r = results[-1]
        print(f"  {label}: {r.get('full', '-')}/{r.get('units', '-')} in {r['seconds']:.1f} s", file=sys.stderr)

    print("| code base | units | deployed | deployed fully converted | non-data fully converted | exit | seconds |")
    print("|---|---|---|---|---|---|---|")
    total = collections.Counter()
    for r in results:
        if "crash" in r:
            print(
                f"| {r['label']} | crashed: {r['crash'].strip().splitlines()[-1][:80]} | | | | | {r['seconds']:.1f} |"
            )
            continue
        pct = 100 * r["full"] / r["units"] if r["units"] else 0.0
        tb = " (traceback!)" if r["traceback"] else ""
        print(
            f"| {r['label']} | {r['units']} | {r['deployed']} | {r['full']} ({pct:.0f} %) | "
            f"{r['full_non_data']}/{r['non_data']} | {r['exit']}{tb} | {r['seconds']:.1f} |"
        )
        for owner, (n, ok) in sorted(r["per_schema"].items()):
            print(f"| {r['label']} / {owner} (non-data) | {n} | | {ok} ({100 * ok / n:.0f} %) | {ok}/{n} | | |")
        total.update(r["causes"])
    print(f"\nTop causes across the code bases (units that did not deploy fully converted: {sum(total.values())})")
    for cause, n in total.most_common(args.top):
        print(f"{n:6d}  {cause}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=dict))
    return 0


if __name__ == "__main__":
    sys.exit(main())
