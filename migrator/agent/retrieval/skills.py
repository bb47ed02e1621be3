"""The skill library: skills from verified repairs only (G2 or better), never from held-out units,
stored as JSON lines beside the knowledge base and retrieved by structural match."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from migrator.agent.retrieval.structure import Skill

ADMITTED_TIERS = ("G2", "G3")


class SkillStore:
    def __init__(self, path: Path | None = None):
        self.path = path
        self.skills: list[Skill] = []
        if path is not None and path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    self.skills.append(Skill.from_json(json.loads(line)))
        self._known = {s.fingerprint for s in self.skills}

    def admit(self, skill: Skill | None, held_out: bool) -> str:
        """Admit a skill, or say why not (the reason goes into the decision log)."""
        if skill is None:
            return "no structural change"
        if held_out:
            return "held-out unit: never a skill"
        if skill.tier not in ADMITTED_TIERS:
            return f"tier {skill.tier}: skills need G2 or better"
        if skill.fingerprint in self._known:
            return "already known"
        self.skills.append(skill)
        self._known.add(skill.fingerprint)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(skill.to_json(), sort_keys=True) + "\n")
        return "admitted"

    def match(
        self, structure: Counter[str], constructs: tuple[str, ...], group: str | None, k: int
    ) -> list[tuple[int, Skill, float]]:
        """Top-k skills by the share of their key present in the unit's structure (constructs in
        common break ties); a unit never sees a skill from its own group (causal eligibility)."""
        scored = []
        for number, skill in enumerate(self.skills, start=1):
            if group is not None and skill.task_group == group:
                continue
            present = sum(1 for kind in skill.key if structure.get(kind, 0) > 0) / max(1, len(skill.key))
            common = len(set(skill.constructs) & set(constructs)) / max(1, len(set(skill.constructs) | set(constructs)))
            score = round(0.8 * present + 0.2 * common, 6)
            if score > 0:
                scored.append((number, skill, score))
        scored.sort(key=lambda t: (-t[2], t[0]))
        return scored[:k]

    def entries(self) -> list[tuple[str, str]]:
        """(task id, text) of every skill: what the leakage audit reads."""
        return [(s.task_id, s.after) for s in self.skills]
