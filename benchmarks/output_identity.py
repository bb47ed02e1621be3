"""Proof that a refactoring leaves the conversion's output unchanged, byte for byte.

    python benchmarks/output_identity.py snapshot /tmp/before.json   # on the commit before
    python benchmarks/output_identity.py compare  /tmp/before.json   # on the commit after

Converts (no deploy, no memo) every fixture schema, `fixtures/messy`, the eval schema, the small
test schemas under `tests/migrator/evidence`, a generated `gen_schema.py` corpus (60 modules,
seed 7: every object distinct), every golden pair of `tests/golden` (as its test converts it), and,
where `../shared/realworld` sits beside the checkout, each of its code bases; also the generated
corpus converted with 2 workers and with conditional-compilation settings, since a cache or a
global that leaks between units shows up only there. Each output file is hashed (sha256); the
seconds a run took and the temporary folder's name are the only things left out (`report.*`). `compare` prints every file
that differs, is missing or is new, and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REALWORLD = ROOT.parent / "shared" / "realworld"
# Timings are the only part of a report that may differ between two runs of the same code.
_TIMING = re.compile(r'("seconds": )[0-9.e+-]+|( · )[0-9.]+ s\b|(in )[0-9.]+ s\b'.encode())


# In JSON strings (escaped), up to the string's end; in Markdown tables, up to the cell's end.
_TRACEBACK = re.compile(rb'Traceback \(most recent call last\):(?:[^"\\]|\\.)*')
_TRACEBACK_MD = re.compile(rb"Traceback \(most recent call last\):[^|\n]*")


def _sources(tmp: Path) -> list[tuple[str, Path, list[str]]]:
    out: list[tuple[str, Path, list[str]]] = []
    for d in sorted((ROOT / "fixtures" / "schemas").iterdir()):
        if d.is_dir():
            out.append((f"schema:{d.name}", d, []))
    out.append(("messy", ROOT / "fixtures" / "messy", ["--schema", "messy"]))
    out.append(("eval", ROOT / "fixtures" / "eval" / "plsql" / "schema", []))
    for d in sorted((ROOT / "tests" / "migrator" / "evidence").iterdir()):
        if d.is_dir() and any(d.glob("*.sql")):
            out.append((f"evidence:{d.name}", d, []))
    gen = tmp / "gen"
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "gen_schema.py"), str(gen), "--modules", "60", "--seed", "7"],
        check=True,
        capture_output=True,
    )
    out.append(("gen", gen, ["--workers", "1"]))
    out.append(("gen-2-workers", gen, ["--workers", "2"]))
    out.append(
        ("gen-ccflags", gen, ["--workers", "2", "--oracle-version", "12.2", "--plsql-ccflags", "debug:TRUE,level:3"])
    )
    if REALWORLD.is_dir():
        for d in sorted(REALWORLD.iterdir()):
            if d.is_dir():
                out.append((f"realworld:{d.name}", d, ["--schema", d.name]))
    return out


def _hash_tree(folder: Path, tmp: Path) -> dict[str, str]:
    hashes = {}
    for f in sorted(folder.rglob("*")):
        if f.is_file():
            data = f.read_bytes()
            if f.name.startswith("report."):
                data = _TIMING.sub(lambda m: (m.group(1) or m.group(2) or m.group(3)) + b"T", data)
                data = data.replace(str(tmp).encode(), b"<tmp>")  # the generated corpus's folder
            # A unit whose conversion raised carries the traceback in its error: it names our own files
            # and line numbers, which any refactoring moves. The error's first line stays compared.
            pattern = _TRACEBACK_MD if f.suffix == ".md" else _TRACEBACK
            data = pattern.sub(b"Traceback <of our code>", data)
            hashes[str(f.relative_to(folder))] = hashlib.sha256(data).hexdigest()
    return hashes


def _goldens() -> dict[str, str]:
    sys.path.insert(0, str(ROOT))
    from tests.golden import GOLDEN_ROOT, convert_case, golden_cases

    hashes = {}
    for family in sorted(p.name for p in GOLDEN_ROOT.iterdir() if p.is_dir()):
        for name, _src, _expected in golden_cases(family):
            try:
                text, applied = convert_case(family, name)
                blob = text + "\n--rules: " + ",".join(applied)
            except Exception as exc:  # a crash is an output too: it must stay the same crash
                blob = f"!! {type(exc).__name__}: {exc}"
            hashes[f"{family}/{name}"] = hashlib.sha256(blob.encode()).hexdigest()
    return hashes


def collect() -> dict[str, dict[str, str]]:
    result: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory(prefix="identity-") as t:
        tmp = Path(t)
        for label, src, extra in _sources(tmp):
            out = tmp / "out" / label.replace(":", "_")
            # relative to the checkout, so that two checkouts (worktrees) of one commit agree
            rel = os.path.relpath(src, ROOT) if not src.is_relative_to(tmp) else str(src)
            cmd = [sys.executable, "-m", "migrator.cli.main", "migrate", rel, "--out", str(out)]
            cmd += ["--force", "--no-deploy", "--no-memo", "--no-progress", *extra]
            # A fixed hash seed: sqlglot's message for a statement it cannot parse names one missing
            # keyword out of a set, which varies with the seed (one sample-schema view's header did)
            proc = subprocess.run(cmd, capture_output=True, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": "0"})
            files = _hash_tree(out, tmp) if out.exists() else {}
            files["<exit code>"] = str(proc.returncode)
            result[label] = files
            print(f"{label}: {len(files) - 1} files, exit {proc.returncode}", file=sys.stderr)
    result["goldens"] = _goldens()
    return result


def compare(before: dict[str, dict[str, str]], after: dict[str, dict[str, str]]) -> list[str]:
    diffs = []
    for label in sorted(set(before) | set(after)):
        b, a = before.get(label, {}), after.get(label, {})
        for name in sorted(set(b) | set(a)):
            if b.get(name) != a.get(name):
                state = "missing" if name not in a else "new" if name not in b else "differs"
                diffs.append(f"{label}: {name} {state}")
    return diffs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("action", choices=["snapshot", "compare"])
    ap.add_argument("file", type=Path)
    args = ap.parse_args()
    now = collect()
    total = sum(len(v) for v in now.values())
    if args.action == "snapshot":
        args.file.write_text(json.dumps(now, indent=1, sort_keys=True))
        print(f"snapshot: {total} outputs in {len(now)} sources -> {args.file}")
        return 0
    diffs = compare(json.loads(args.file.read_text()), now)
    for d in diffs:
        print(d)
    print(f"{total} outputs in {len(now)} sources compared: {len(diffs)} differ")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
