"""Checks of a run's inputs made before any work: a mistake in them is reported at once, not after
the conversion, the deployment and the judging it would otherwise wait for."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from migrator.source.units import SourceSet


def check_evidence(scenarios: Path | None, transcript: Path | None, unit_ids: Collection[str]) -> None:
    """The scenario file and the transcript read and validate, and every unit a scenario names is
    one of `unit_ids` (HarnessError otherwise, with the nearest unit names)."""
    from harness.ground_truth.scenarios import check_scenario_units, load_scenarios, load_transcript

    if scenarios is not None:
        check_scenario_units(load_scenarios(scenarios), scenarios, unit_ids)
    if transcript is not None:
        load_transcript(transcript)


SCHEMA_FROM_FOLDER = "schema-from-folder"  # the issue code of schema_name_warning's finding


def schema_name_warning(source: SourceSet) -> str | None:
    """When the schema name was taken from the folder's name (no --schema) and the export names
    other owners but never that one (a copy of `hr_payroll` in a folder `myhr`), what to do about
    it: unqualified objects would be created in a schema the export's qualified names and its
    scenarios do not know."""
    others = Counter(u.schema for u in source.units if u.schema != source.schema)
    if not others:
        return None
    named = re.compile(r"(?<![\w$#])" + re.escape(source.schema) + r'"?\s*\.', re.I)
    if any(named.search(u.text) for u in source.units):
        return None
    owner, count = others.most_common(1)[0]
    return (
        f"the schema name {source.schema!r} comes from the folder's name, but the export names "
        f"{', '.join(sorted(others))} as owner ({count} object(s) of {owner}) and never {source.schema}: "
        f"if the export is {owner}'s, give --schema {owner} (and --scenarios for its scenario file)"
    )
