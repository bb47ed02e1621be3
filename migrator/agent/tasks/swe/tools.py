"""What the agent's actions do in its worktree: read, search and list files, edit them (validated),
revert, and run tests in the sandbox.

Reading, searching and editing happen in the tool's process on text, confined to the worktree (no
path outside it, none through a symlink out of it, nothing under .git). Only the repository's
own code runs — tests and reproduction scripts — and only in the sandbox. An edit is validated
before it lands: every SEARCH block must match exactly once, a diff must apply cleanly, and a
Python file must still compile; otherwise nothing changes and the observation says why.
"""

from __future__ import annotations

import builtins
import os
from dataclasses import dataclass
from pathlib import Path

from harness.tasks.process_sandbox import SandboxResult, run_sandboxed
from harness.tasks.pytest_runs import PASSING, PytestRun, PythonEnv, RunLimits, python_policy, run_pytest
from migrator.agent.tasks.swe.actions import Edit, ListDir, Patch, Read, Revert, Search
from migrator.agent.tasks.swe.repos import NOT_IN_PATCH, current_patch, git, patch_files, reset_to_commit

SKIP_DIRS = {".git", "__pycache__", ".pytest_cache", "node_modules", ".tox", ".venv", ".mypy_cache"}


class PathRefused(ValueError):
    """A path outside the worktree (or inside .git)."""


@dataclass(frozen=True)
class ToolLimits:
    per_test_timeout_s: float = 60.0
    suite_timeout_s: float = 900.0
    repro_timeout_s: float = 180.0
    isolation: str = "namespaces"
    read_lines: int = 250
    search_hits: int = 60
    list_entries: int = 200


@dataclass
class Observation:
    text: str
    ok: bool  # the action did what was asked (a failing test run or a refused edit is not ok)
    files: tuple[str, ...] = ()  # files the action read or changed
    edited: bool = False


class Workspace:
    def __init__(self, tree: Path, base: str, env: PythonEnv, scratch: Path, private: Path, limits: ToolLimits):
        self.tree, self.base, self.env = tree.resolve(), base, env
        self.scratch, self.private, self.limits = scratch, private, limits
        scratch.mkdir(parents=True, exist_ok=True)
        private.mkdir(parents=True, exist_ok=True)

    # -- paths -----------------------------------------------------------------------------------
    def resolve(self, rel: str) -> Path:
        path = (self.tree / rel).resolve()
        if path != self.tree and self.tree not in path.parents:
            raise PathRefused(f"{rel}: outside the repository")
        if ".git" in path.relative_to(self.tree).parts:
            raise PathRefused(f"{rel}: inside .git")
        return path

    def rel(self, path: Path) -> str:
        return path.relative_to(self.tree).as_posix() or "."

    def pythonpath(self, tree: Path | None = None) -> tuple[Path, ...]:
        tree = tree or self.tree
        return (tree, tree / "src") if (tree / "src").is_dir() else (tree,)

    # -- inspection --------------------------------------------------------------------------------
    def read(self, action: Read) -> Observation:
        path = self.resolve(action.path)
        if not path.is_file():
            return Observation(f"{action.path}: no such file", False)
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        end = min(len(lines), action.end or action.start + self.limits.read_lines - 1)
        shown = [f"{n:5d}  {lines[n - 1]}" for n in range(action.start, end + 1)]
        more = f"\n[{len(lines) - end} more lines: read {action.path} {end + 1}-]" if end < len(lines) else ""
        header = f"{self.rel(path)} (lines {action.start}-{end} of {len(lines)})"
        return Observation(header + "\n" + "\n".join(shown) + more, True, (self.rel(path),))

    def search(self, action: Search) -> Observation:
        root = self.resolve(action.path)
        hits: list[str] = []
        total = 0
        for path in self._files(root):
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            for n, line in enumerate(text.splitlines(), 1):
                if action.text in line:
                    total += 1
                    if len(hits) < self.limits.search_hits:
                        hits.append(f"{self.rel(path)}:{n}: {line.strip()[:160]}")
        if not hits:
            return Observation(f"no match for {action.text!r} under {action.path}", True)
        files = tuple(dict.fromkeys(h.split(":", 1)[0] for h in hits))
        more = f"\n[{total - len(hits)} more matches]" if total > len(hits) else ""
        return Observation(f"{total} match(es) for {action.text!r}:\n" + "\n".join(hits) + more, True, files)

    def list(self, action: ListDir) -> Observation:
        root = self.resolve(action.path)
        if not root.is_dir():
            return Observation(f"{action.path}: not a directory", False)
        entries = []
        for path in sorted(root.rglob("*")):
            depth = len(path.relative_to(root).parts)
            if depth > 2 or SKIP_DIRS & set(path.relative_to(root).parts):
                continue
            entries.append(self.rel(path) + ("/" if path.is_dir() else ""))
        shown = entries[: self.limits.list_entries]
        more = f"\n[{len(entries) - len(shown)} more]" if len(entries) > len(shown) else ""
        return Observation("\n".join(shown) + more, True)

    def _files(self, root: Path):
        if root.is_file():
            yield root
            return
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for name in sorted(files):
                path = Path(folder, name)
                if not path.is_symlink() and path.stat().st_size <= 1_000_000:
                    yield path

    # -- changes ---------------------------------------------------------------------------------
    def edit(self, action: Edit) -> Observation:
        path = self.resolve(action.path)
        if not path.is_file():
            return Observation(f"{action.path}: no such file (create files with a patch)", False)
        text = path.read_text(encoding="utf-8")
        for number, block in enumerate(action.replacements, 1):
            count = text.count(block.search)
            if count != 1:
                where = "not found" if count == 0 else f"found {count} times; add context to make it unique"
                return Observation(f"edit refused, nothing changed: SEARCH block {number} {where}", False)
            text = text.replace(block.search, block.replace, 1)
        problem = compile_problem(path, text)
        if problem:
            return Observation(f"edit refused, nothing changed: the file would not compile: {problem}", False)
        path.write_text(text, encoding="utf-8")
        return Observation(
            f"edited {self.rel(path)} ({len(action.replacements)} block(s))", True, (self.rel(path),), True
        )

    def patch(self, action: Patch) -> Observation:
        diff = action.diff if action.diff.endswith("\n") else action.diff + "\n"
        files = patch_files(diff)
        try:
            for rel in files:
                self.resolve(rel)
        except PathRefused as exc:
            return Observation(f"patch refused: {exc}", False)
        check = git(["apply", "--check", "--whitespace=nowarn", "-"], self.tree, stdin=diff)
        if not check.ok:
            return Observation(f"patch refused, nothing changed: {check.stderr.strip()[-600:]}", False)
        git(["apply", "--whitespace=nowarn", "-"], self.tree, stdin=diff)
        broken = [f"{rel}: {p}" for rel in files if (p := compile_problem(self.tree / rel))]
        if broken:
            git(["apply", "-R", "--whitespace=nowarn", "-"], self.tree, stdin=diff)
            return Observation("patch refused, nothing changed: " + "; ".join(broken), False)
        return Observation(f"patch applied to {', '.join(files)}", True, tuple(files), True)

    def revert(self, action: Revert) -> Observation:
        paths = list(action.paths) or self.changed_files()
        try:
            rels = [self.rel(self.resolve(p)) for p in paths]
        except PathRefused as exc:
            return Observation(f"revert refused: {exc}", False)
        reset_to_commit(self.tree, self.base, rels)
        return Observation(
            f"reverted to the base commit: {', '.join(rels) or 'nothing had changed'}", True, tuple(rels), True
        )

    def changed_files(self) -> builtins.list[str]:  # `list` here is the ListDir action
        res = git(["status", "--porcelain", "--untracked-files=all", "--", ".", *NOT_IN_PATCH], self.tree)
        return [line[3:].split(" -> ")[-1] for line in res.stdout.splitlines() if line.strip()]

    def patch_text(self) -> str:
        return current_patch(self.tree, self.base)

    # -- execution -------------------------------------------------------------------------------
    def default_targets(self) -> tuple[str, ...]:
        return ("tests",) if (self.tree / "tests").is_dir() else (".",)

    def run_tests(self, targets: tuple[str, ...]) -> tuple[Observation, PytestRun]:
        targets = targets or self.default_targets()
        limits = RunLimits(self.limits.per_test_timeout_s, self.limits.suite_timeout_s, self.limits.isolation)
        run = run_pytest(list(targets), PythonEnv(self.env.python, self.pythonpath()), self.tree, self.scratch, limits)
        return Observation(describe_run(run, targets), tests_pass(run)), run

    def run_script(self, script: Path, tree: Path | None = None) -> SandboxResult:
        tree = tree or self.tree
        env = PythonEnv(self.env.python, self.pythonpath(tree))
        policy = python_policy(env, tree, self.scratch, self.limits.repro_timeout_s, self.limits.isolation)
        return run_sandboxed([str(self.env.python), str(script)], policy)


def compile_problem(path: Path, text: str | None = None) -> str | None:
    """Why a Python file does not compile (None when it does, or is not Python). compile() only
    parses: nothing of the file runs in the tool's process."""
    if path.suffix != ".py" or (text is None and not path.is_file()):
        return None
    try:
        compile(text if text is not None else path.read_text(encoding="utf-8"), str(path), "exec")
    except (SyntaxError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def tests_pass(run: PytestRun) -> bool:
    ran = [r for r in run.results.values() if r.status != "skipped"]
    return bool(ran) and all(r.status in PASSING for r in ran) and all(s != "missing" for s in run.targets.values())


def describe_run(run: PytestRun, targets) -> str:
    counts: dict[str, int] = {}
    for r in run.results.values():
        counts[r.status] = counts.get(r.status, 0) + 1
    head = f"pytest {' '.join(targets)}: " + (", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "no test ran")
    bad = [r for r in run.results.values() if r.status not in PASSING and r.status != "skipped"]
    lines = [head]
    for r in bad[:8]:
        lines.append(f"--- {r.nodeid}: {r.status}\n{r.message.strip()[-900:]}")
    if not run.results:
        lines.append(run.log_tail[-1500:])
    return "\n".join(lines)
