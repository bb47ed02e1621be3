"""Reproduction-grounded verification (PMCoder §III-E).

A reproduction script is *armed* only once it has been seen to fail on the unmodified repository
(a clean worktree at the base commit): then "passes now" means "the issue no longer reproduces".
It comes from an offline table (`--repro DIR`) or, when there is none, from the agent's first
`reproduce` with a script; once armed it is fixed for the episode, so the goalposts cannot move.
After each edit the script is rerun automatically (at most `auto_checks` times per episode), and
verdicts are cached by the patch they were taken on. A submitted fix counts only when an armed
reproduction passes on that exact patch and the tests pass; without an armed script the tests
alone decide (PMCoder's ungated predicate), and the report says which applied.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from harness.tasks.process_sandbox import SandboxResult
from migrator.agent.tasks.swe.repos import worktree
from migrator.agent.tasks.swe.tools import Workspace

AUTO_CHECKS = 4  # PMCoder Table II: repro checks per episode


@dataclass
class Verdict:
    passed: bool
    text: str
    cached: bool = False


def signature(patch: str) -> str:
    return hashlib.sha256(patch.encode("utf-8")).hexdigest()[:16]


def _outcome(res: SandboxResult) -> str:
    if res.timed_out:
        return f"timed out after {res.seconds:.0f} s"
    tail = (res.stdout + res.stderr).strip()[-1200:]
    return f"exit code {res.returncode}" + (f"\n{tail}" if tail else "")


@dataclass
class Reproduction:
    ws: Workspace
    clone: Path
    auto_checks: int = AUTO_CHECKS
    script: str | None = None
    source: str | None = None  # "offline" | "agent"
    armed: bool = False
    auto_used: int = 0
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    history: list[dict] = field(default_factory=list)  # every verdict, for the trajectory

    @property
    def path(self) -> Path:
        return self.ws.private / "reproduce.py"  # outside every path the sandbox may write

    def offer(self, script: str, source: str) -> str:
        """Validate a script on the base commit; arm it when it fails there."""
        if self.armed:
            return "a validated reproduction is already armed for this episode; it is not replaced"
        self.path.write_text(script, encoding="utf-8")
        with worktree(self.clone, self.ws.base, self.ws.scratch.parent, "repro-base") as clean:
            res = self.ws.run_script(self.path, clean)
        if res.ok:
            return f"not armed: the script passes on the unmodified repository, so it does not reproduce the issue\n{_outcome(res)}"
        self.script, self.source, self.armed = script, source, True
        self.history.append({"event": "armed", "source": source, "base": _outcome(res)[:400]})
        return f"reproduction armed ({source}): it fails on the unmodified repository ({_outcome(res)[:600]})"

    def check(self, patch: str, automatic: bool) -> Verdict | None:
        """The verdict on `patch` (the worktree's current state). None when nothing is armed, or
        an automatic check is past its cap."""
        if not self.armed:
            return None
        key = signature(patch)
        if key in self.verdicts:
            found = self.verdicts[key]
            return Verdict(found.passed, found.text, cached=True)
        if automatic:
            if self.auto_used >= self.auto_checks:
                return None
            self.auto_used += 1
        res = self.ws.run_script(self.path)
        verdict = Verdict(res.ok, _outcome(res))
        self.verdicts[key] = verdict
        self.history.append({"event": "verdict", "patch": key, "passed": res.ok, "automatic": automatic})
        return verdict


def describe(verdict: Verdict | None) -> str:
    if verdict is None:
        return ""
    state = "PASSES (the issue no longer reproduces)" if verdict.passed else "still FAILS (the issue reproduces)"
    return f"reproduction {state}{' [cached]' if verdict.cached else ''}: {verdict.text[:800]}"
