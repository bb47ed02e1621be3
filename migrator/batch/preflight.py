"""Checks of a run's inputs made before any work: a mistake in them is reported at once, not after
the conversion, the deployment and the judging it would otherwise wait for."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path


def check_evidence(scenarios: Path | None, transcript: Path | None, unit_ids: Collection[str]) -> None:
    """The scenario file and the transcript read and validate, and every unit a scenario names is
    one of `unit_ids` (HarnessError otherwise, with the nearest unit names)."""
    from harness.scenarios import check_scenario_units, load_scenarios, load_transcript

    if scenarios is not None:
        check_scenario_units(load_scenarios(scenarios), scenarios, unit_ids)
    if transcript is not None:
        load_transcript(transcript)
