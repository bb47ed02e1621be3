"""`migrator record SRC --reference DIR`: ground truth from a trusted PostgreSQL port.

Exit codes: 0 the port deployed whole and every scenario step was recorded (a plain P0001 error
is recorded as a user-defined error without its number, counted in the summary; a step whose
answer moves with the clock is recorded as clock-dependent, listed); 1 something of the port never
deployed, a scenario's setup failed on it, or a step had no Oracle-shaped outcome (the transcript
is written all the same, and says only what was recorded); 2 bad usage or input.

The clock (`--clock`): see harness.engines.frozen_clock and harness.ground_truth.trusted_port.
"""

from __future__ import annotations

import sys
from pathlib import Path

from harness.engines.postgres import EngineUnavailable
from harness.ground_truth.scenarios import dump_transcript, load_scenarios
from harness.ground_truth.trusted_port import PortError, ReferenceRecording, record_reference, skipped_files
from migrator.batch.output import preamble_sql
from migrator.batch.sandboxing import open_engine
from migrator.source.units import UnitKind


def _print_problems(rec: ReferenceRecording) -> None:
    for line in rec.not_deployed:
        print(f"  not deployed on the reference: {line}")
    for line in rec.left_out:
        print(f"  scenario left out (its setup fails on the reference): {line}")
    for line in rec.unrecorded:
        print(f"  step not recorded: {line}")
    for line in rec.clock_dependent:
        print(f"  step clock-dependent (answered differently at another instant; never compared): {line}")


def _freezer(mode: str):
    """The factory of frozen-clock servers for `--clock`, or None (real clock); raises
    EngineUnavailable when `frozen` was asked for and cannot be had."""
    from harness.engines.frozen_clock import FrozenClockPostgres, unavailable_reason
    from migrator.batch.output import required_extensions

    if mode == "real":
        return None
    reason = unavailable_reason()
    if reason is not None:
        if mode == "frozen":
            raise EngineUnavailable(f"--clock frozen: {reason}")
        print(f"migrator: note: the port's clock cannot be frozen ({reason}): it reads the real clock, and "
              "steps that answer differently at two instants are recorded as clock-dependent", file=sys.stderr)  # fmt: skip
        return None
    extensions = required_extensions()
    return lambda instant: FrozenClockPostgres(instant, extensions)


def run_record_reference(args, scenarios: Path, engine_spec: str, source=None) -> int:
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    preamble = None
    if source is not None:  # the steps run where the converted code would: same schemas, support library
        packages = sorted({u.name for u in source.units if u.kind is UnitKind.PACKAGE_SPEC})
        preamble = preamble_sql(source.schema, packages)
    skipped = skipped_files(args.reference)
    if skipped:
        print(
            f"migrator: note: {args.reference} is the output folder of a `migrator migrate` run: its unit files "
            f"are the port; {' and '.join(skipped)} are not deployed (psql's include list, the superuser's "
            "extensions). A port judges a migration only if you trust it more than the run being judged.",
            file=sys.stderr,
        )
    try:
        scenario_file = load_scenarios(scenarios)
        from migrator.cli.executor_choice import chosen_executor

        with open_engine(engine_spec, chosen_executor(args)) as engine:
            freeze = _freezer(getattr(args, "clock", "auto"))
            rec = record_reference(
                engine,
                args.reference,
                scenario_file,
                progress=progress,
                preamble=preamble,
                freeze=freeze,
                check_clock=True,
            )
    except (PortError, EngineUnavailable, ValueError) as exc:
        print(f"migrator: error: {exc}", file=sys.stderr)
        return 2
    try:
        dump_transcript(rec.transcript, args.out)
    except OSError as exc:
        print(f"migrator: error: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    _print_problems(rec)
    steps = sum(len(s) for s in rec.transcript.outcomes.values())
    digest = rec.transcript.provenance.content_hash or ""
    print(
        f"transcript written: {args.out} ({len(rec.transcript.outcomes)} scenarios, {steps} steps, provenance "
        f"reference, port sha256 {digest[:16]}…, {rec.statements} statements deployed in {rec.rounds} round(s), "
        f"{len(rec.not_deployed)} never; clock: {rec.transcript.provenance.clock or 'no scenario'}; "
        f"{rec.number_unknown} step(s) a user-defined error with no number (plain P0001: compared by class and "
        f"message only); {len(rec.clock_dependent)} step(s) clock-dependent)"
    )
    return 1 if rec.not_deployed or rec.left_out or rec.unrecorded else 0
