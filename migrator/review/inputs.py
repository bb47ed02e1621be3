"""What a review site is built from: OUT/report.json, OUT/steps.json, OUT/run_manifest.json, and
the unit texts (the Oracle source read back by its file:line span, the PostgreSQL file in OUT).

Everything read here is untrusted text for the pages (they escape it); paths taken from the report
are followed only inside the source directory and OUT, so an edited report.json cannot make a
page show another file of the machine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from migrator.batch.report import RunReport, UnitEntry
from migrator.batch.steps_file import STEPS_FILE, StepsFile, load_steps
from migrator.batch.verification import AGENT_MANIFEST
from migrator.suites.model import TestResult


class ReviewError(Exception):
    """OUT (or a cycles directory) cannot be reviewed; the message says why and what to run."""


@dataclass
class RunInputs:
    out: Path
    report: RunReport
    steps: StepsFile | None
    manifest: dict | None  # the repair agent's run_manifest.json
    attempts: dict[str, dict] = field(default_factory=dict)  # unit id -> its manifest entry
    tests: dict[str, TestResult] = field(default_factory=dict)  # the team's tests (tests.json), by name


def load_run(out: Path) -> RunInputs:
    path = out / "report.json"
    if not path.is_file():
        raise ReviewError(f"{out} has no report.json (run `migrator migrate SRC --out {out}` first)")
    try:
        report = RunReport.model_validate_json(path.read_text(encoding="utf-8"))
    except (ValidationError, ValueError, OSError) as exc:
        raise ReviewError(f"{path} is not a report of this migrator: {_first_line(exc)}") from exc
    try:
        steps = load_steps(out)
    except (ValidationError, ValueError, OSError) as exc:
        raise ReviewError(f"{out / STEPS_FILE} is not readable: {_first_line(exc)}") from exc
    manifest = _manifest(out) if report.agent else None
    units = manifest.get("units", []) if manifest else []
    attempts = {u["item_id"]: u for u in units if isinstance(u, dict) and isinstance(u.get("item_id"), str)}
    return RunInputs(out, report, steps, manifest, attempts, _tests(out) if report.tests else {})


def _tests(out: Path) -> dict[str, TestResult]:
    from migrator.suites.attach import load_tests

    try:
        run = load_tests(out)
    except (ValueError, KeyError, OSError) as exc:
        raise ReviewError(f"{out / 'tests.json'} is not readable: {_first_line(exc)}") from exc
    return {r.name: r for r in run.results} if run else {}


def _manifest(out: Path) -> dict | None:
    path = out / AGENT_MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError) as exc:
        raise ReviewError(f"{path} is not readable: {_first_line(exc)}") from exc
    return data if isinstance(data, dict) else None


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class Confined:
    """Paths under one root, refused when they lead outside it (by `..`, an absolute path, or a
    symbolic link). Resolved folder by folder with a cache: a run's unit files sit in a dozen
    folders, and resolving every one of 10,000 paths component by component is slow."""

    def __init__(self, root: Path):
        self.root = root
        self._real_root = root.resolve()
        self._folders: dict[Path, bool] = {}

    def __call__(self, rel: str) -> Path | None:
        target = self.root / rel
        folder = target.parent
        if folder not in self._folders:
            try:
                self._folders[folder] = folder.resolve().is_relative_to(self._real_root)
            except (OSError, RuntimeError):
                self._folders[folder] = False
        if not self._folders[folder] or target.is_symlink() or target.name in ("", ".", ".."):
            return None
        return target


@dataclass(frozen=True)
class Text:
    text: str
    first_line: int = 1
    problem: str | None = None  # why the text could not be read (the page says so)


class TextReader:
    """Reads unit texts, each source file once (a 10,000-unit export comes from a few files)."""

    def __init__(self, inputs: RunInputs):
        self.source_dir = Path(inputs.report.source_dir)
        self.out = inputs.out
        self._in_source, self._in_out = Confined(self.source_dir), Confined(self.out)
        self._files: dict[str, list[str] | str] = {}

    def _lines(self, file: str) -> list[str] | str:
        if file not in self._files:
            path = self._in_source(file)
            try:
                if path is None:
                    raise OSError("outside the source directory")
                self._files[file] = path.read_bytes().decode("utf-8", errors="replace").splitlines()
            except OSError as exc:
                self._files[file] = f"source file {self.source_dir / file} not readable ({exc.strerror or exc})"
        return self._files[file]

    def source(self, unit: UnitEntry) -> Text:
        file, _, span = unit.source.rpartition(":")
        start, _, end = span.partition("-")
        if not file or not start.isdigit() or not (end or start).isdigit():
            return Text("", problem=f"no source span in {unit.source!r}")
        lines = self._lines(file)
        if isinstance(lines, str):
            return Text("", problem=lines)
        first, last = int(start), int(end or start)
        return Text("\n".join(lines[first - 1 : last]), first)

    def output(self, unit: UnitEntry) -> Text:
        if not unit.output:
            return Text("", problem="no output file")
        path = self._in_out(unit.output)
        if path is None or not path.is_file():
            return Text("", problem=f"output file {unit.output} is missing")
        return Text(path.read_text(encoding="utf-8", errors="replace"))
