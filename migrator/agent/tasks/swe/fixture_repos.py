"""The project's own SWE instances (`fixtures/swe/`): git repositories built from files in this
repository, and the SWE-bench files generated from them. Nothing is downloaded.

    fixtures/swe/repos/<name>/repo.yaml          repo (owner/name) and its commits, oldest first
    fixtures/swe/repos/<name>/<commit dir>/...   the files that commit adds or changes
    fixtures/swe/instances/<id>/instance.yaml    repo, base commit (a commit dir), issue, test lists,
                                                 the partly-right prediction's expected outcome
    fixtures/swe/instances/<id>/gold/...         source files after the fix (-> `patch`)
    fixtures/swe/instances/<id>/test_patch/...   test files after the test change (-> `test_patch`)
    fixtures/swe/instances/<id>/partial/... or partial.patch   the partly-right prediction
    fixtures/swe/instances/<id>/repro.py         a reproduction script: fails before the fix

Commits carry fixed authors and dates, so their hashes are the same on every machine and
`instances.jsonl` can name base commits by hash, as SWE-bench does.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from migrator.agent.tasks.swe.instances import Prediction, SweInstance
from migrator.agent.tasks.swe.repos import current_patch, git, patch_files, worktree

AUTHOR = {
    "GIT_AUTHOR_NAME": "swefix maintainers",
    "GIT_AUTHOR_EMAIL": "maintainers@swefix.invalid",
    "GIT_COMMITTER_NAME": "swefix maintainers",
    "GIT_COMMITTER_EMAIL": "maintainers@swefix.invalid",
}
MARKER = ".git/migrator-fixture.json"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CommitSpec(_Frozen):
    dir: str
    message: str
    date: str
    delete: tuple[str, ...] = ()


class RepoSpec(_Frozen):
    repo: str
    commits: tuple[CommitSpec, ...] = Field(min_length=1)


class PartialSpec(_Frozen):
    expect: Literal["resolved", "unresolved"]
    why: str
    source: Literal["overlay", "patch", "gold", "empty"] = "overlay"


class InstanceSpec(_Frozen):
    instance_id: str
    repo: str
    base: str  # a commit dir of the repo
    version: str
    created_at: str
    problem_statement: str
    FAIL_TO_PASS: tuple[str, ...]
    PASS_TO_PASS: tuple[str, ...]
    partial: PartialSpec


@dataclass
class Generated:
    instances: list[SweInstance] = field(default_factory=list)
    scripts: dict[str, str] = field(default_factory=dict)  # instance id -> its reproduction script
    gold: list[Prediction] = field(default_factory=list)
    empty: list[Prediction] = field(default_factory=list)
    partial: list[Prediction] = field(default_factory=list)
    expected_partial: dict[str, dict] = field(default_factory=dict)


def clone_dir_name(repo: str) -> str:
    return repo.replace("/", "__")


def repo_specs(fixtures: Path) -> dict[Path, RepoSpec]:
    return {
        d: RepoSpec.model_validate(yaml.safe_load((d / "repo.yaml").read_text(encoding="utf-8")))
        for d in sorted((fixtures / "repos").iterdir())
        if (d / "repo.yaml").is_file()
    }


def _content_hash(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def build_repos(fixtures: Path, dest: Path) -> dict[str, Path]:
    """Every fixture repository as a git clone under `dest` (`owner__name`); a clone built from the
    same files already is reused."""
    dest.mkdir(parents=True, exist_ok=True)
    out = {}
    for folder, spec in repo_specs(fixtures).items():
        target = dest / clone_dir_name(spec.repo)
        stamp = _content_hash(folder)
        marker = target / MARKER
        if not (marker.is_file() and json.loads(marker.read_text()).get("content") == stamp):
            _build_one(folder, spec, target)
            marker.write_text(json.dumps({"content": stamp}), encoding="utf-8")
        out[spec.repo] = target
    return out


def _build_one(folder: Path, spec: RepoSpec, target: Path) -> None:
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    _git_ok(["init", "-q", "-b", "main"], target)
    for commit in spec.commits:
        _overlay(folder / commit.dir, target)
        for path in commit.delete:
            (target / path).unlink()
        _git_ok(["add", "-A"], target)
        # Fixed identity and dates: the same hashes on every machine.
        env = {**AUTHOR, "GIT_AUTHOR_DATE": commit.date, "GIT_COMMITTER_DATE": commit.date}
        _git_ok(["commit", "-q", "--no-gpg-sign", "-m", commit.message], target, env)
        _git_ok(["tag", commit.dir], target)


def _git_ok(args: list[str], cwd: Path, env: dict | None = None) -> str:
    res = git(args, cwd, extra_env=env)
    if not res.ok:
        raise RuntimeError(f"git {' '.join(args)} in {cwd}: {res.stderr.strip()}")
    return res.stdout


def _overlay(src: Path, dest: Path) -> None:
    for path in sorted(p for p in src.rglob("*") if p.is_file()):
        target = dest / path.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
        target.chmod(0o644)  # the checkout's modes never change a commit hash


def instance_specs(fixtures: Path) -> dict[Path, InstanceSpec]:
    return {
        d: InstanceSpec.model_validate(yaml.safe_load((d / "instance.yaml").read_text(encoding="utf-8")))
        for d in sorted((fixtures / "instances").iterdir())
        if (d / "instance.yaml").is_file()
    }


def generate(fixtures: Path, repos_dir: Path, scratch: Path) -> Generated:
    """Instances and the gold, empty and partly-right predictions, computed with git."""
    repos = build_repos(fixtures, repos_dir)
    out = Generated()
    for folder, spec in instance_specs(fixtures).items():
        clone = repos[spec.repo]
        base = _git_ok(["rev-parse", f"{spec.base}^{{commit}}"], clone).strip()
        with worktree(clone, base, scratch, spec.instance_id) as tree:
            gold = _diff_of(tree, base, folder / "gold")
            tests = _diff_of(tree, base, folder / "test_patch")
            partial = _partial_patch(tree, base, folder, spec.partial, gold)
        out.instances.append(_instance(spec, base, gold, tests))
        out.gold.append(Prediction(instance_id=spec.instance_id, model_name_or_path="gold", model_patch=gold))
        out.empty.append(Prediction(instance_id=spec.instance_id, model_name_or_path="empty", model_patch=""))
        out.partial.append(Prediction(instance_id=spec.instance_id, model_name_or_path="partial", model_patch=partial))
        out.expected_partial[spec.instance_id] = spec.partial.model_dump()
        out.scripts[spec.instance_id] = (folder / "repro.py").read_text(encoding="utf-8")
    return out


def _instance(spec: InstanceSpec, base: str, gold: str, tests: str) -> SweInstance:
    return SweInstance(
        instance_id=spec.instance_id,
        repo=spec.repo,
        base_commit=base,
        problem_statement=spec.problem_statement,
        test_patch=tests,
        FAIL_TO_PASS=spec.FAIL_TO_PASS,
        PASS_TO_PASS=spec.PASS_TO_PASS,
        environment_setup_commit=base,
        version=spec.version,
        patch=gold,
        created_at=spec.created_at,
    )


def _diff_of(tree: Path, base: str, overlay: Path) -> str:
    _overlay(overlay, tree)
    patch = current_patch(tree, base)
    _git_ok(["checkout", "-q", "-f", base, "--", "."], tree)
    _git_ok(["clean", "-fdq"], tree)
    return patch


def _partial_patch(tree: Path, base: str, folder: Path, spec: PartialSpec, gold: str) -> str:
    if spec.source == "gold":
        return gold
    if spec.source == "empty":
        return ""
    if (folder / "partial.patch").is_file():
        return (folder / "partial.patch").read_text(encoding="utf-8")
    return _diff_of(tree, base, folder / "partial")


def write_generated(fixtures: Path, gen: Generated) -> list[Path]:
    files: dict[Path, list[SweInstance] | list[Prediction]] = {
        fixtures / "instances.jsonl": gen.instances,
        fixtures / "predictions" / "gold.jsonl": gen.gold,
        fixtures / "predictions" / "empty.jsonl": gen.empty,
        fixtures / "predictions" / "partial.jsonl": gen.partial,
    }
    for path, models in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(m.model_dump_json() + "\n" for m in models), encoding="utf-8")
    expected = fixtures / "predictions" / "partial.expected.json"
    resolved = sorted(i for i, e in gen.expected_partial.items() if e["expect"] == "resolved")
    summary = {"resolved": len(resolved), "total": len(gen.expected_partial), "resolved_ids": resolved}
    expected.write_text(json.dumps({**summary, "per_instance": gen.expected_partial}, indent=2) + "\n")
    model = fixtures / "models" / "gold-agent.yaml"
    model.parent.mkdir(parents=True, exist_ok=True)
    model.write_text(gold_agent_script(gen), encoding="utf-8")
    return [*files, expected, model]


def gold_agent_script(gen: Generated) -> str:
    """A scripted model that knows every gold patch: it checks the pipeline end to end (plan,
    reproduce, read, patch, test, submit) and is no result of any kind."""
    rules: list[dict[str, str | list[str]]] = []
    for inst in gen.instances:
        target = patch_files(inst.patch)[0]
        plan = '```json\n[{"phase": "reproduce", "goal": "reproduce the issue"}, {"phase": "localize", '
        plan += f'"goal": "read {target}"}}, {{"phase": "edit", "goal": "fix {target}"}}, '
        plan += '{"phase": "verify", "goal": "reproduction and tests pass"}]\n```'
        rules.append({"regex": f"(?s)# Instance {re.escape(inst.instance_id)} \\(.*Decompose", "answer": plan})
        steps = [
            f"First reproduce the issue.\nACTION: reproduce\n```python\n{gen.scripts[inst.instance_id]}```",
            f"ACTION: read {target}",
            f"The cause is in {target}.\nACTION: patch\n```diff\n{inst.patch}```",
            "ACTION: test",
            "ACTION: submit",
        ]
        rules.append({"when": f"[instance {inst.instance_id} ·", "answers": steps})
    header = "# Generated by `migrator swe make-repos --regenerate`: knows the gold patches (a pipeline check).\n"
    data = {"default": "ACTION: submit", "rules": rules}
    return header + yaml.dump(data, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True, width=120)


class _BlockDumper(yaml.SafeDumper):
    """Multi-line strings as literal blocks, so a script file reads like the answers it holds."""


_BlockDumper.add_representer(
    str, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s, style="|" if "\n" in s else None)
)
