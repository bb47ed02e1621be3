"""The fix-cycle orchestrator: draft → freeze → run both arms → decide (and, on promote, apply).

The cycle file, its hash, the predicates and the audit chain are `harness.fixcycles.gates`; this module adds
what needs the migrator: running the baseline arm (the active settings) and the candidate arm (the
same settings with the one change) over the whole corpus, and applying a promoted change for real —
the settings file for rules, prompt paragraphs and harness settings, the knowledge base (through
`ingest` or `admit_rule`, with the decision record as its approval) for corrections and proposed
rules. The candidate arm and promote derive their settings from the same function, so what is
promoted is exactly what was measured.

A prompt paragraph or a knowledge-base change acts only through the repair agent, so those arms run
with the configured model (`--model`: a real one, or `scripted:`/`replay:` in tests) and each arm
works on its own scratch copy of the knowledge base (the candidate's with the change applied as a
trial): their predicted flips are measured, and nothing reaches the real store before promote.
"""

from __future__ import annotations

import difflib
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from harness.engines.postgres import engine_from_spec
from harness.exceptions import HarnessError, validation_reasons
from harness.fixcycles import gates
from harness.fixcycles.gates import (
    ArmResult,
    Decision,
    FixCycle,
    GateError,
    HarnessChange,
    KbChange,
    KbRuleChange,
    PromptChange,
    RuleChange,
    RunRecord,
    SchemaArm,
)
from harness.judge.regress import write_baseline
from migrator.batch.pipeline import VERSION, MigrateOptions, migrate
from migrator.cli.commands import default_evidence
from migrator.convert.context import RuleSet
from migrator.convert.registry import check_rule_ids
from migrator.errors import MigratorError
from migrator.fixes import kb_changes
from migrator.fixes.settings import ActiveSettings, PromptParagraph, SettingsError, load_settings, save_settings


@dataclass(frozen=True)
class FixContext:
    cycles: Path = Path("fix-cycles")
    settings: Path = Path("settings.yaml")
    corpus: Path = Path("fixtures/schemas")
    kb: Path | None = None
    engine: str = "embedded"  # deployment engine spec: embedded, testcontainers or a DSN
    baselines: Path | None = None  # promote writes the candidate arm's categories here (<schema>.json)
    model: str | None = None  # the repair agent's model in both arms (prompt and KB changes need it)
    attempts: int = 3
    executor: Any = None  # where the arms' scenarios run (harness.cluster); None: here

    @property
    def audit(self) -> Path:
        return self.cycles / gates.AUDIT_FILE


# -- draft, freeze --------------------------------------------------------------------------------
def new_cycle(ctx: FixContext, title: str) -> Path:
    ctx.cycles.mkdir(parents=True, exist_ok=True)
    cycle_id = gates.next_cycle_id(ctx.cycles)
    path = gates.cycle_path(ctx.cycles, cycle_id)
    path.write_text(gates.draft_text(cycle_id, title), encoding="utf-8")
    gates.append_audit(ctx.audit, cycle_id, "new", {"title": title})
    return path


def freeze_cycle(ctx: FixContext, cycle_id: str) -> FixCycle:
    cycle = gates.freeze(gates.load_cycle(ctx.cycles, cycle_id))
    _check_change_applies(ctx, cycle)  # refuse to freeze a change that cannot be run at all
    _check_predicted_flips(ctx, cycle)  # ...or a prediction that cannot come true
    gates.append_audit(ctx.audit, cycle_id, "freeze", {"hash": cycle.frozen_hash})
    gates.save_cycle(ctx.cycles, cycle)
    return cycle


def guard(ctx: FixContext, cycle: FixCycle) -> None:
    """Refuse to go on when the audit chain is damaged or the frozen part was edited."""
    chain = gates.verify_chain(ctx.audit)
    if not chain.ok:
        raise GateError(f"audit log {ctx.audit} is damaged at line {chain.first_bad_line}: {chain.problem}")
    gates.check_frozen(cycle, gates.logged_freeze_hash(ctx.audit, cycle.id))


def audit_consistency(ctx: FixContext) -> list[str]:
    """Cycle files whose state the log does not account for. A hash chain cannot see its own tail
    being cut off; the cycle files can, because each state change left one entry per step."""
    entries = gates.audit_entries(ctx.audit)
    problems = []
    for path in sorted(ctx.cycles.glob("FIX-*.yaml")):
        try:
            cycle = gates.load_cycle(ctx.cycles, path.stem)
        except HarnessError as exc:  # no such cycle, or a file that does not load
            problems.append(f"{path.name}: unreadable ({exc})")
            continue
        events = [e["event"] for e in entries if e["cycle"] == cycle.id]
        needed = {"draft": [], "frozen": ["freeze"], "run": ["freeze", "run"], "decided": ["freeze", "run"]}
        missing = [e for e in needed[cycle.state] if e not in events]
        if events.count("decide") < len(cycle.decisions):
            missing.append(f"{len(cycle.decisions) - events.count('decide')} decide")
        if missing:
            problems.append(f"{cycle.id} is {cycle.state} but the log lacks: {', '.join(missing)}")
    return problems


# -- the one change, applied to settings --------------------------------------------------------------
def with_change(settings: ActiveSettings, cycle: FixCycle) -> ActiveSettings:
    """The settings the candidate arm runs with (and promote writes). KB changes leave them alone."""
    change = cycle.change
    if isinstance(change, RuleChange):
        return settings.model_copy(update={"disabled_rules": _toggle_rule(settings.disabled_rules, change)})
    if isinstance(change, PromptChange):
        if any(p.id == change.paragraph_id for p in settings.prompt_paragraphs):
            raise GateError(f"prompt paragraph {change.paragraph_id!r} is already active")
        para = PromptParagraph(id=change.paragraph_id, text=change.text, added_by=cycle.id)
        return settings.model_copy(update={"prompt_paragraphs": [*settings.prompt_paragraphs, para]})
    if isinstance(change, HarnessChange):
        if change.setting not in type(settings.harness).model_fields:
            raise GateError(
                f"unknown harness setting {change.setting!r}; known: {', '.join(type(settings.harness).model_fields)}"
            )
        data = settings.harness.model_dump() | {change.setting: change.value}
        try:
            harness = type(settings.harness).model_validate(data)
        except ValidationError as exc:
            raise SettingsError(f"fix cycle {cycle.id}: harness change: {validation_reasons(exc)}") from None
        return settings.model_copy(update={"harness": harness})
    return settings


def _toggle_rule(disabled: list[str], change: RuleChange) -> list[str]:
    check_rule_ids([change.rule_id], "fix cycle rule change")  # a typo is a usage error, not a no-op
    if change.action == "disable":
        if not RuleSet(frozenset(disabled)).enabled(change.rule_id):
            raise GateError(f"rule {change.rule_id} is already disabled in the active settings")
        return sorted({*disabled, change.rule_id})
    if change.rule_id not in disabled:
        raise GateError(
            f"rule {change.rule_id} is not disabled in the active settings "
            f"(disabled: {', '.join(disabled) or 'none'}); the candidate arm would equal the baseline"
        )
    rest = sorted(set(disabled) - {change.rule_id})
    if not RuleSet(frozenset(rest)).enabled(change.rule_id):
        raise GateError(f"rule {change.rule_id} would stay off: its family is disabled as a whole")
    return rest


AGENT_CHANGES = (PromptChange, KbChange, KbRuleChange)


def _check_change_applies(ctx: FixContext, cycle: FixCycle) -> None:
    if isinstance(cycle.change, KbChange | KbRuleChange) and ctx.kb is None:
        raise GateError(f"{cycle.id} changes the knowledge base: give --kb PATH")
    if isinstance(cycle.change, AGENT_CHANGES) and not ctx.model:
        raise GateError(
            f"{cycle.id} changes what the repair agent sees ({describe_change(cycle)}): both arms must run the "
            "agent, give --model (a real model, or scripted:/replay: to replay one); rules-only arms cannot differ"
        )
    if isinstance(cycle.change, KbRuleChange):
        kb_changes.check_rule_entry(ctx.kb, cycle.change)
    with_change(load_settings(ctx.settings), cycle)


def _check_predicted_flips(ctx: FixContext, cycle: FixCycle) -> None:
    """Every predicted flip names a unit of the corpus that is not already in the predicted
    category by the corpus's regression baselines (`--baselines`, else <root>/baselines/ beside
    <root>/schemas/<schema>, as for the scenarios):
    a typo or a flip that cannot happen is found at freeze, not after the arms' long run."""
    flips = cycle.predicates.flips
    if not flips:
        return
    from harness.ground_truth.scenarios import unknown_unit_message
    from harness.judge.regress import load_baseline
    from migrator.source.reader import read_schema_dir

    known: set[str] = set()
    already: dict[str, tuple[str, Path]] = {}
    for src in schema_dirs(ctx.corpus):
        known.update(u.id for u in read_schema_dir(src).units)
        path = (ctx.baselines or src.resolve().parent.parent / "baselines") / f"{src.name.lower()}.json"
        if path.is_file():
            already.update((unit, (category, path)) for unit, category in load_baseline(path).categories.items())
    problems = []
    for flip in flips:
        if flip.unit not in known:
            problems.append(f"{unknown_unit_message(flip.unit, known)} (corpus {ctx.corpus})")
        elif flip.unit in already and already[flip.unit][0] == flip.to:
            problems.append(
                f"{flip.unit} is {flip.to} already (baseline {already[flip.unit][1]}): it cannot flip to it"
            )
    if problems:
        raise MigratorError(f"{cycle.id}: predicted flips: " + "; ".join(problems))


def describe_change(cycle: FixCycle) -> str:
    c = cycle.change
    if isinstance(c, RuleChange):
        return f"rule {c.rule_id} {c.action}d"
    if isinstance(c, PromptChange):
        return f"prompt paragraph {c.paragraph_id!r} added"
    if isinstance(c, HarnessChange):
        return f"harness {c.setting} = {c.value!r}"
    if isinstance(c, KbChange):
        return f"knowledge-base correction for {c.construct_id}"
    if isinstance(c, KbRuleChange):
        return f"knowledge-base rule {c.construct_id!r} ({c.idiom}) admitted from entry {c.entry}"
    return "no change"


# -- running the arms -----------------------------------------------------------------------------
def schema_dirs(corpus: Path) -> list[Path]:
    """Every schema directory under the corpus; a corpus without subdirectories is one schema."""
    if not corpus.is_dir():
        raise GateError(f"corpus {corpus} is not a directory")
    subdirs = sorted(d for d in corpus.iterdir() if d.is_dir())
    return subdirs or [corpus]


@dataclass(frozen=True)
class _Arm:
    label: str
    settings: ActiveSettings
    applied: str
    kb: Path | None  # the arm's scratch copy of the knowledge base (None: no memory)


def _run_schema(src: Path, out: Path, arm: _Arm, dsn: str, ctx: FixContext) -> SchemaArm:
    schema = src.name.lower()
    scenarios, transcript = default_evidence(src, schema)
    settings = arm.settings
    report = migrate(
        src,
        out,
        MigrateOptions(
            force=True,
            deploy=dsn,
            executor=ctx.executor,
            verify=True,
            progress=False,
            scenarios=scenarios,
            transcript=transcript,
            disabled_rules=frozenset(settings.disabled_rules),
            step_timeout_ms=settings.harness.step_timeout_ms,
            model=ctx.model if scenarios and transcript else None,
            kb=arm.kb,
            attempts=ctx.attempts,
            settings=settings,
        ),
    )
    rows = {r.arm: r for r in report.verification.rows} if report.verification else {}
    agent = next((r for name, r in rows.items() if name not in ("do-nothing", "rules only")), None)
    nothing = rows.get("do-nothing")
    return SchemaArm(
        schema_name=report.schema_name,
        out_dir=str(out),
        provenance=report.verification.provenance if report.verification else None,
        categories={u.id: u.category or "unverified" for u in report.units},
        outputs={u.id: u.output for u in report.units if u.output},
        agent_row=agent.by_category if agent else {},
        do_nothing_row=nothing.by_category if nothing else {},
        steps_agreeing=agent.steps_agreeing if agent else 0,
        steps_total=agent.steps_total if agent else 0,
        do_nothing_steps_agreeing=nothing.steps_agreeing if nothing else 0,
    )


def _run_arm(arm: _Arm, dirs: list[Path], out_root: Path, dsn: str, ctx: FixContext) -> ArmResult:
    schemas = [_run_schema(src, out_root / arm.label / src.name, arm, dsn, ctx) for src in dirs]
    return ArmResult(label=arm.label, settings_version=arm.settings.version, applied=arm.applied, schemas=schemas)


def run_cycle(ctx: FixContext, cycle_id: str) -> FixCycle:
    cycle = gates.load_cycle(ctx.cycles, cycle_id)
    held = cycle.state == "decided" and cycle.decisions[-1].action == "hold"
    if cycle.state not in ("frozen", "run") and not held:
        raise GateError(f"{cycle_id} is {cycle.state}; only a frozen (or held) cycle can be run")
    guard(ctx, cycle)
    _check_change_applies(ctx, cycle)
    active = load_settings(ctx.settings)
    candidate = with_change(active, cycle)
    dirs, out_root = schema_dirs(ctx.corpus), ctx.cycles / cycle_id
    shutil.rmtree(out_root, ignore_errors=True)  # a rerun replaces the previous arms entirely
    model = f" with model {ctx.model}" if ctx.model else " (rules only)"
    arms = [
        _Arm(
            "baseline",
            active,
            f"active settings v{active.version}{model}",
            kb_changes.arm_kb(ctx, cycle, out_root, "baseline"),
        ),
        _Arm(
            "candidate",
            candidate,
            f"active settings v{active.version} + {describe_change(cycle)}{model}",
            kb_changes.arm_kb(ctx, cycle, out_root, "candidate"),
        ),
    ]
    with engine_from_spec(ctx.engine) as engine:  # one server for both arms and every schema
        dsn = engine.admin_dsn()
        base, cand = (_run_arm(arm, dirs, out_root, dsn, ctx) for arm in arms)
    record = RunRecord(
        at=gates.now(),
        frozen_hash=cycle.frozen_hash,
        code=code_version(),
        baseline=base,
        candidate=cand,
        predicates=gates.evaluate(cycle.predicates, base, cand),
    )
    cycle = cycle.model_copy(update={"state": "run", "run": record})
    gates.append_audit(
        ctx.audit,
        cycle_id,
        "run",
        {
            "hash": cycle.frozen_hash,
            "settings_version": active.version,
            "all_met": record.all_met,
            "flips": len(gates.flips(base.categories(), cand.categories())),
            "schemas": [s.schema_name for s in base.schemas],
        },
    )
    gates.save_cycle(ctx.cycles, cycle)
    return cycle


def code_version() -> str:
    """`0.1.0 @ abc1234 (+ uncommitted changes)`: both arms share it, but a later rerun may not."""
    here = Path(__file__).resolve().parent

    def git(*argv: str) -> str:
        try:
            return subprocess.run(["git", *argv], cwd=here, capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    commit = git("rev-parse", "--short", "HEAD")
    dirty = " (+ uncommitted changes)" if commit and git("status", "--porcelain", "--untracked-files=no") else ""
    return f"{VERSION} @ {commit or 'unknown commit'}{dirty}"


# -- deciding -------------------------------------------------------------------------------------
def decide_cycle(
    ctx: FixContext, cycle_id: str, action: str, reviewer: str, reason: str, override: str | None = None
) -> FixCycle:
    cycle = gates.load_cycle(ctx.cycles, cycle_id)
    guard(ctx, cycle)
    if override and action != "promote":
        raise GateError("--override only applies to promote")
    decision = Decision(
        action=action,
        reviewer=reviewer,
        at=gates.now(),
        reason=reason,
        override=override,
        frozen_hash=cycle.frozen_hash or "",
    )
    decided = gates.decide(cycle, decision)  # raises before anything is written
    if action == "promote":
        _check_settings_unchanged(ctx, cycle)
        applied = _apply(ctx, cycle, decision)
        decided = decided.model_copy(
            update={"decisions": [*cycle.decisions, decision.model_copy(update={"applied": applied})]}
        )
    gates.append_audit(
        ctx.audit,
        cycle_id,
        "decide",
        {
            "action": action,
            "reviewer": reviewer,
            "reason": reason,
            "override": override,
            "hash": cycle.frozen_hash,
            "applied": decided.decisions[-1].applied,
        },
    )
    gates.save_cycle(ctx.cycles, decided)
    return decided


def _check_settings_unchanged(ctx: FixContext, cycle: FixCycle) -> None:
    version = load_settings(ctx.settings).version
    if version != cycle.ran.baseline.settings_version:
        raise GateError(
            f"{cycle.id} was run against settings v{cycle.ran.baseline.settings_version}, the active "
            f"settings are v{version}; run it again (`migrator fix run {cycle.id}`) before promoting"
        )


def _apply(ctx: FixContext, cycle: FixCycle, decision: Decision) -> str:
    """Write the promoted change where it lives; returns what was written, in words."""
    if isinstance(cycle.change, KbChange):
        applied = kb_changes.ingest(ctx.kb, cycle, decision)
    elif isinstance(cycle.change, KbRuleChange):
        applied = kb_changes.admit(ctx.kb, cycle, decision)
    else:
        active = load_settings(ctx.settings)
        changed = with_change(active, cycle)
        version = active.version + 1
        line = f"v{version}: {cycle.id} promote ({describe_change(cycle)}) by {decision.reviewer} at {decision.at}"
        save_settings(ctx.settings, changed.model_copy(update={"version": version, "history": [*active.history, line]}))
        applied = f"settings {ctx.settings} v{version}: {describe_change(cycle)}"
    if ctx.baselines is not None:
        for arm in cycle.ran.candidate.schemas:
            write_baseline(
                ctx.baselines / f"{arm.schema_name}.json", arm.schema_name, arm.provenance, dict(arm.categories)
            )
        applied += f"; baselines in {ctx.baselines} updated from the candidate arm"
    return applied


# -- showing --------------------------------------------------------------------------------------
def flip_diffs(cycle: FixCycle, context: int = 2) -> list[tuple[str, str, str, str]]:
    """(unit, from, to, unified diff of the baseline vs candidate output) for every flipped unit."""
    if cycle.run is None:
        return []
    base, cand = _outputs(cycle.run.baseline), _outputs(cycle.run.candidate)
    out = []
    for unit, was, now in gates.flips(cycle.run.baseline.categories(), cycle.run.candidate.categories()):
        a, b = _read(base.get(unit)), _read(cand.get(unit))
        diff = "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), "baseline", "candidate", n=context))
        out.append((unit, was, now, diff or "(outputs identical; the verdict moved through a dependency)\n"))
    return out


def _outputs(arm: ArmResult) -> dict[str, Path]:
    return {u: Path(s.out_dir) / rel for s in arm.schemas for u, rel in s.outputs.items()}


def _read(path: Path | None) -> str:
    return path.read_text(encoding="utf-8") if path is not None and path.is_file() else ""
