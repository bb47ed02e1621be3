"""How often a rule's units turned out wrong, measured on the fixture corpus.

For every rule, the fixture units it converts (today's converter, default settings) are joined with
the categories the committed regression baselines record for them (fixtures/baselines/, kept
honest by `migrator regress` in CI). Units judged by execution (correct, wrong, rejected) count;
`unverified` ones say nothing. A rule's risk is (bad + 1) / (judged + 2): Laplace's rule of
succession, so a rule never judged is a coin toss (0.5), and one judged correct on forty units is
about 2%.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from migrator.assess.scan import convert_schema
from migrator.source.reader import SourceError

JUDGED = frozenset({"correct", "wrong", "rejected"})
BAD = frozenset({"wrong", "rejected"})


@dataclass(frozen=True)
class RuleEvidence:
    judged: int = 0
    bad: int = 0

    @property
    def risk(self) -> float:
        return (self.bad + 1) / (self.judged + 2)


@dataclass
class Calibration:
    source: str  # in words: which corpus, how many units
    rules: dict[str, RuleEvidence] = field(default_factory=dict)

    def risk(self, rule: str) -> float:
        return self.rules.get(rule, RuleEvidence()).risk


def default_corpus() -> Path | None:
    """The repository's fixtures/ (schemas/ and baselines/), when this is a source checkout."""
    root = Path(__file__).resolve().parents[2] / "fixtures"
    return root if (root / "schemas").is_dir() and (root / "baselines").is_dir() else None


def _baseline(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    categories = data.get("categories") if isinstance(data, dict) else None
    return categories if isinstance(categories, dict) else {}


def measure(corpus: Path | None) -> Calibration:
    """Rule evidence from CORPUS/schemas/<name> joined with CORPUS/baselines/<name>.json."""
    if corpus is None:
        return Calibration("no calibration corpus (not a source checkout): every rule counts as never judged")
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    units = judged_units = 0
    for baseline in sorted((corpus / "baselines").glob("*.json")):
        src = corpus / "schemas" / baseline.stem
        categories = _baseline(baseline)
        if not src.is_dir() or not categories:
            continue
        try:
            _, converted = convert_schema(src)
        except SourceError:
            continue
        for c in converted:
            category = categories.get(c.unit.id)
            units += 1
            if category not in JUDGED:
                continue
            judged_units += 1
            for rule in c.conversion.applied_rules:
                counts[rule][0] += 1
                counts[rule][1] += category in BAD
    rules = {r: RuleEvidence(j, b) for r, (j, b) in sorted(counts.items())}
    source = f"{corpus}: {units} fixture units, {judged_units} judged by execution against the committed baselines"
    return Calibration(source, rules)
