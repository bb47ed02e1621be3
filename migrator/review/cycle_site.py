"""`migrator review CYCLES`: the static pages a reviewer decides a fix cycle from.

    CYCLES/review/index.html       every cycle, the audit chain's state, the whole audit log
    CYCLES/review/FIX-NNN.html     the one change, the frozen predicates and whether each held,
                                   both arms' categories, the flips unit by unit with their output
                                   diff, the decisions and the cycle's audit entries

Each arm's output directory (CYCLES/FIX-NNN/<arm>/<schema>/) gets its own run review site, copied
with the arm's report and unit files to CYCLES/review/arms/FIX-NNN/<arm>/<schema>/, and a flip
links to the unit's page in both arms there: CYCLES/review/ holds every page it links to, so it can
be published or archived on its own. Integrity is checked here exactly as `fix show` and
`fix audit` check it (the same functions), and shown, never assumed.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness.fixcycles import gates
from harness.fixcycles.gates import ArmResult, FixCycle, GateError
from harness.judge.categories import Category
from migrator import __name__ as _tool
from migrator.batch.output import REVIEW_DIR, STATE_DIR
from migrator.batch.pipeline import VERSION
from migrator.fixes.cycle import FixContext, audit_consistency, describe_change, flip_diffs
from migrator.review.index_view import Bar, segments
from migrator.review.inputs import ReviewError
from migrator.review.render import ASSETS, asset, render
from migrator.review.run_site import SiteResult, write_run_site
from migrator.review.unit_view import unit_page

NAV = (("Cycles", "index.html#cycles"), ("Audit log", "index.html#audit"))


def is_cycles_dir(path: Path) -> bool:
    return path.is_dir() and ((path / gates.AUDIT_FILE).is_file() or any(path.glob("FIX-*.yaml")))


@dataclass
class Flip:
    unit: str
    was: str
    now: str
    predicted: bool
    diff: list[tuple[str, str]]  # (css kind, line)
    links: list[tuple[str, str]] = field(default_factory=list)  # (arm, href to the unit's page)


@dataclass
class CycleView:
    cycle: FixCycle
    change: str
    integrity: str  # "intact" or why not
    bars: list[Bar]
    arms: list[ArmResult]
    flips: list[Flip]
    entries: list[dict]


def _diff_lines(diff: str) -> list[tuple[str, str]]:
    kinds = {"+": "add", "-": "rem", "@": "hunk"}
    return [
        (kinds.get(line[:1], "ctx") if not line.startswith(("+++", "---")) else "hunk", line)
        for line in diff.splitlines()
    ]


def _arm_dir(cycles: Path, cycle: FixCycle, label: str, out_dir: str) -> Path | None:
    """An arm's output folder: as recorded (relative to where `fix run` ran), else where
    `fix run` puts it under the cycles folder."""
    for candidate in (Path(out_dir), cycles / cycle.id / label / Path(out_dir).name):
        if (candidate / "report.json").is_file():
            return candidate
    return None


def _integrity(ctx: FixContext, cycle: FixCycle, chain: gates.ChainReport) -> str:
    if cycle.state == "draft":
        return "draft: not frozen yet"
    if not chain.ok:
        return f"audit log damaged at line {chain.first_bad_line}: {chain.problem}"
    try:
        gates.check_frozen(cycle, gates.logged_freeze_hash(ctx.audit, cycle.id))
    except GateError as exc:
        return f"TAMPERED: {exc}"
    return "intact"


def _arm_bars(cycle: FixCycle) -> list[Bar]:
    bars = []
    for arm in (cycle.run.baseline, cycle.run.candidate) if cycle.run else ():
        counts: dict[str, int] = {c: arm.total("agent_row", c) for c in Category}
        total = sum(counts.values())
        steps = f"{sum(s.steps_agreeing for s in arm.schemas)}/{sum(s.steps_total for s in arm.schemas)}"
        bars.append(Bar(arm.label, arm.applied, total, segments(counts, tuple(Category), ""), steps))
        nothing: dict[str, int] = {c: arm.total("do_nothing_row", c) for c in Category}
        bars.append(
            Bar(
                f"{arm.label}: do-nothing",
                "nothing deployed",
                sum(nothing.values()),
                segments(nothing, tuple(Category), ""),
            )
        )
    return bars


def _flips(cycles: Path, cycle: FixCycle, sites: dict[str, Path]) -> list[Flip]:
    predicted = {f.unit for f in cycle.predicates.flips}
    here = cycles / REVIEW_DIR
    out = []
    for unit, was, now, diff in flip_diffs(cycle):
        flip = Flip(unit, was, now, unit in predicted, _diff_lines(diff))
        for label, site in sites.items():
            page = site / REVIEW_DIR / unit_page(unit)
            if page.is_file():
                flip.links.append((label, Path(os.path.relpath(page, here)).as_posix()))
        out.append(flip)
    return out


def _arm_sites(cycles: Path, cycle: FixCycle) -> dict[str, Path]:
    """Write each arm's run review site and copy the arm (site, reports, unit files; not its
    state folder) under CYCLES/review/; returns arm label -> that copy (one schema per arm and
    unit: unit ids carry their schema)."""
    sites: dict[str, Path] = {}
    for arm in (cycle.run.baseline, cycle.run.candidate) if cycle.run else ():
        for schema in arm.schemas:
            folder = _arm_dir(cycles, cycle, arm.label, schema.out_dir)
            try:
                if folder is not None:
                    write_run_site(folder)
                    copy = cycles / REVIEW_DIR / ARMS_DIR / cycle.id / arm.label / schema.schema_name
                    shutil.rmtree(copy, ignore_errors=True)  # a copy from an earlier review is stale
                    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(STATE_DIR))
                    sites[f"{arm.label} {schema.schema_name}"] = copy
            except ReviewError:  # an arm folder damaged since the run: its flips go without links
                continue
    return sites


ARMS_DIR = "arms"  # under CYCLES/review/: the copies of the arms the cycle pages link to


def cycle_view(ctx: FixContext, cycle: FixCycle, chain: gates.ChainReport, entries: list[dict]) -> CycleView:
    sites = _arm_sites(ctx.cycles, cycle)
    return CycleView(
        cycle=cycle,
        change=describe_change(cycle),
        integrity=_integrity(ctx, cycle, chain),
        bars=_arm_bars(cycle),
        arms=[cycle.run.baseline, cycle.run.candidate] if cycle.run else [],
        flips=_flips(ctx.cycles, cycle, sites),
        entries=[e for e in entries if e.get("cycle") == cycle.id],
    )


def _load_cycles(cycles: Path) -> tuple[list[FixCycle], list[str]]:
    loaded, unreadable = [], []
    for path in sorted(cycles.glob("FIX-*.yaml")):
        try:
            loaded.append(gates.load_cycle(cycles, path.stem))
        except (GateError, ValueError, OSError) as exc:
            unreadable.append(f"{path.name}: {str(exc).splitlines()[0]}")
    return loaded, unreadable


def write_cycles_site(cycles: Path) -> SiteResult:
    """Write CYCLES/review/. Raises ReviewError when the folder holds no fix cycles."""
    t0 = time.perf_counter()
    if not is_cycles_dir(cycles):
        raise ReviewError(f"{cycles} holds no fix cycles (FIX-NNN.yaml) and no {gates.AUDIT_FILE}")
    ctx = FixContext(cycles=cycles)
    chain = gates.verify_chain(ctx.audit)
    entries = gates.audit_entries(ctx.audit) if chain.ok else []
    loaded, unreadable = _load_cycles(cycles)
    views = [cycle_view(ctx, c, chain, entries) for c in loaded]
    common = dict(
        root="", brand="Review · fix cycles", nav=NAV, version=f"{_tool} {VERSION}", generated_from=str(cycles)
    )
    site = cycles / REVIEW_DIR
    files = {f"assets/{name}": asset(name) for name in ASSETS}
    problems = unreadable + (audit_consistency(ctx) if chain.ok else [])
    files["index.html"] = render(
        "cycles_index.html.j2",
        views=views,
        chain=chain,
        entries=entries,
        problems=problems,
        title="Fix cycles",
        **common,
    )
    for view in views:
        files[f"{view.cycle.id}.html"] = render("cycle.html.j2", v=view, chain=chain, title=view.cycle.id, **common)
    for rel, text in files.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text, encoding="utf-8")
    return SiteResult(site / "index.html", len(views) + 1, round(time.perf_counter() - t0, 2))
