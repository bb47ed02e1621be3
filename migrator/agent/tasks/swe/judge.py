"""The judge, with SWE-bench's semantics.

At the instance's base commit, in a fresh worktree: apply the candidate patch (git apply, then
patch --fuzz=5); put the files the test patch touches back to the base commit and apply the test
patch (so a candidate cannot change the tests that judge it); run FAIL_TO_PASS and PASS_TO_PASS
by pytest node id in the sandbox, with the repository's own virtualenv and a per-test timeout.

Resolved, as SWE-bench's grading computes it: a test passes when its status is passed or xfail,
fails when it is missing, failed, errored, timed out (or xpassed: not a status SWE-bench's parser
knows), and a skipped test counts as neither; the instance is resolved when every FAIL_TO_PASS
test that passed-or-failed passed, and likewise every PASS_TO_PASS test. An empty patch is
unresolved without running anything, as SWE-bench reports it.
"""

from __future__ import annotations

import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from harness.tasks.pytest_runs import PASSING, PythonEnv, RunLimits, run_pytest
from migrator.agent.tasks.swe.environments import EnvBuildError, EnvOptions, ensure_env
from migrator.agent.tasks.swe.instances import SweInstance
from migrator.agent.tasks.swe.repos import (
    RepoError,
    apply_patch,
    find_clone,
    patch_files,
    reset_to_commit,
    resolve_commit,
    worktree,
)

Status = Literal["resolved", "unresolved", "empty patch", "patch does not apply", "no prediction", "error"]
NEITHER = ("skipped",)


class InstanceResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    instance_id: str
    resolved: bool
    status: Status
    reason: str
    fail_to_pass: dict[str, str] = {}  # test id -> status
    pass_to_pass: dict[str, str] = {}
    seconds: float = 0.0
    isolation: str | None = None


@dataclass(frozen=True)
class JudgeContext:
    repos_dir: Path
    work_dir: Path  # worktrees and scratch folders go here (removed after each instance)
    env: EnvOptions
    limits: RunLimits


def pythonpath_for(tree: Path) -> tuple[Path, ...]:
    """The checkout on the import path (and its src/ layout), instead of installing it."""
    return (tree, tree / "src") if (tree / "src").is_dir() else (tree,)


def not_pytest_ids(instance: SweInstance) -> list[str]:
    """Test ids this judge cannot run: it runs pytest node ids (file.py or file.py::name) only."""
    tests = instance.FAIL_TO_PASS + instance.PASS_TO_PASS
    return [t for t in tests if "::" not in t and not t.split("[")[0].endswith(".py")]


def judge_patch(instance: SweInstance, patch: str | None, ctx: JudgeContext, run_empty: bool = False) -> InstanceResult:
    """The verdict for one candidate patch. Never raises for a bad instance, repository or patch:
    the result says what went wrong."""
    started = time.perf_counter()
    if not (patch or "").strip() and not run_empty:
        return _result(instance, "empty patch", "the patch is empty", started)
    odd = not_pytest_ids(instance)
    if odd:
        return _result(instance, "error", f"not pytest node ids (this judge runs pytest only): {odd[:3]}", started)
    try:
        clone = find_clone(ctx.repos_dir, instance)
        resolve_commit(clone, instance.base_commit)
        env = ensure_env(instance, clone, ctx.env)
    except (RepoError, EnvBuildError) as exc:
        return _result(instance, "error", str(exc), started)
    with worktree(clone, instance.base_commit, ctx.work_dir / "judge", instance.instance_id) as tree:
        return _judge_in(instance, patch or "", tree, env, ctx, started)


def _judge_in(
    instance: SweInstance, patch: str, tree: Path, env: PythonEnv, ctx: JudgeContext, started: float
) -> InstanceResult:
    applied, how = apply_patch(tree, patch)
    if not applied:
        return _result(instance, "patch does not apply", how, started)
    reset_to_commit(tree, instance.base_commit, patch_files(instance.test_patch))
    applied, how = apply_patch(tree, instance.test_patch)
    if not applied:
        return _result(instance, "error", f"the instance's test patch does not apply: {how}", started)
    scratch = ctx.work_dir / "scratch" / f"{instance.instance_id}-{uuid.uuid4().hex[:8]}"
    scratch.mkdir(parents=True)
    try:
        targets = list(dict.fromkeys(instance.FAIL_TO_PASS + instance.PASS_TO_PASS))
        run = run_pytest(targets, PythonEnv(env.python, pythonpath_for(tree)), tree, scratch, ctx.limits)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if not run.results and "No module named pytest" in run.log_tail:
        # the environment cannot run the tests at all: not judged, which is not "unresolved"
        why = "pytest is not installed in the repository's environment (add it with --seed pytest)"
        return _result(instance, "error", why, started, iso=run.isolation)
    f2p = {t: run.status(t) for t in instance.FAIL_TO_PASS}
    p2p = {t: run.status(t) for t in instance.PASS_TO_PASS}
    resolved, reason = grade(f2p, p2p)
    status: Status = "resolved" if resolved else "unresolved"
    return _result(instance, status, reason, started, f2p, p2p, run.isolation)


def grade(f2p: dict[str, str], p2p: dict[str, str]) -> tuple[bool, str]:
    """SWE-bench's rule over test statuses, with a reason that names what failed."""
    parts, ok = [], True
    for label, tests in (("FAIL_TO_PASS", f2p), ("PASS_TO_PASS", p2p)):
        counted = {t: s for t, s in tests.items() if s not in NEITHER}
        bad = {t: s for t, s in counted.items() if s not in PASSING}
        ok &= not bad
        parts.append(f"{label} {len(counted) - len(bad)}/{len(counted)} pass")
        parts += [f"{t}: {s}" for t, s in list(bad.items())[:5]]
    return ok, "; ".join(parts)


def _result(instance, status: Status, reason: str, started: float, f2p=None, p2p=None, iso=None) -> InstanceResult:
    return InstanceResult(
        instance_id=instance.instance_id,
        resolved=status == "resolved",
        status=status,
        reason=reason,
        fail_to_pass=f2p or {},
        pass_to_pass=p2p or {},
        seconds=round(time.perf_counter() - started, 3),
        isolation=iso,
    )
