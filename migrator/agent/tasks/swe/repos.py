"""Local clones and per-instance git worktrees; applying patches and reading the candidate's diff.

Git always runs from the tool with a fixed environment: no user or system configuration (so no
hooks path, pager, signing or filter a user set up changes what we apply or read), hooks off, and
never inside the sandbox. Patches are applied as SWE-bench's harness does: `git apply`, then GNU
`patch --fuzz=5` when git refuses.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from migrator.agent.tasks.swe.instances import SweInstance

GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_AUTHOR_NAME": "migrator",
    "GIT_AUTHOR_EMAIL": "migrator@localhost",
    "GIT_COMMITTER_NAME": "migrator",
    "GIT_COMMITTER_EMAIL": "migrator@localhost",
    "LC_ALL": "C",
}
# Never part of a candidate's patch: byte-code and test caches the sandboxed runs leave behind.
NOT_IN_PATCH = (":(exclude,glob)**/__pycache__/**", ":(exclude,glob)**/*.pyc", ":(exclude,glob)**/.pytest_cache/**")


class RepoError(RuntimeError):
    """A repository or commit that cannot be used for an instance (the message says why)."""


@dataclass
class GitResult:
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def git(
    args: Sequence[str], cwd: Path, stdin: str | None = None, timeout: float = 300, extra_env: dict | None = None
) -> GitResult:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.devnull, **GIT_ENV, **(extra_env or {})}
    proc = subprocess.run(
        ["git", "-c", "core.hooksPath=/dev/null", "-c", "core.autocrlf=false", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=timeout,
    )
    return GitResult(proc.returncode, proc.stdout, proc.stderr)


def find_clone(repos_dir: Path, instance: SweInstance) -> Path:
    """The clone of the instance's repository in `--repos DIR` (`owner__name`, then `name`)."""
    for name in instance.clone_names:
        candidate = Path(repos_dir) / name
        if (candidate / ".git").exists() or (candidate / "HEAD").is_file():
            return candidate
    tried = ", ".join(str(Path(repos_dir) / n) for n in instance.clone_names)
    raise RepoError(f"no clone of {instance.repo} in {repos_dir} (looked for {tried})")


def resolve_commit(clone: Path, commit: str) -> str:
    res = git(["rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"], clone)
    if not res.ok:
        raise RepoError(f"commit {commit} is not in {clone} (fetch the full history of the clone)")
    return res.stdout.strip()


@contextlib.contextmanager
def worktree(clone: Path, commit: str, parent: Path, label: str) -> Iterator[Path]:
    """A detached worktree of `clone` at `commit` under `parent`, removed afterwards."""
    sha = resolve_commit(clone, commit)
    parent.mkdir(parents=True, exist_ok=True)
    path = (parent / f"{_safe(label)}-{uuid.uuid4().hex[:8]}").resolve()
    res = git(["worktree", "add", "--detach", "--force", str(path), sha], clone)
    if not res.ok:
        raise RepoError(f"cannot check out {sha[:12]} of {clone}: {res.stderr.strip()[:500]}")
    try:
        yield path
    finally:
        remove_worktree(clone, path)


def remove_worktree(clone: Path, path: Path) -> None:
    git(["worktree", "remove", "--force", "--force", str(path)], clone)
    if path.exists():  # files the sandbox left that git does not know about
        shutil.rmtree(path, ignore_errors=True)
    git(["worktree", "prune"], clone)


def _safe(label: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in label)[:80]


def apply_patch(tree: Path, patch: str) -> tuple[bool, str]:
    """Apply a unified diff to a checkout: (applied, how or why not)."""
    if not patch.strip():
        return True, "empty patch"
    text = patch if patch.endswith("\n") else patch + "\n"
    first = git(["apply", "--verbose", "--whitespace=nowarn", "-"], tree, stdin=text)
    if first.ok:
        return True, "git apply"
    if shutil.which("patch"):
        proc = subprocess.run(
            ["patch", "--batch", "--fuzz=5", "-p1", "--no-backup-if-mismatch", "-r", "-"],
            cwd=tree,
            input=text,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=120,
        )
        if proc.returncode == 0:
            return True, "patch --fuzz=5"
        return False, f"git apply: {_last(first.stderr)}; patch: {_last(proc.stdout + proc.stderr)}"
    return False, f"git apply: {_last(first.stderr)}"


def _last(text: str, n: int = 3) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return " | ".join(lines[-n:])[:600] or "no message"


def patch_files(patch: str) -> list[str]:
    """Paths a unified diff touches (its `+++ b/` and `--- a/` sides, /dev/null left out)."""
    files = []
    for line in patch.splitlines():
        if line.startswith(("+++ ", "--- ")):
            path = line[4:].split("\t")[0].strip()
            if path != "/dev/null":
                path = path[2:] if path[:2] in ("a/", "b/") else path
                if path not in files:
                    files.append(path)
    return files


def reset_to_commit(tree: Path, commit: str, paths: Sequence[str]) -> None:
    """Put `paths` back as they are at `commit` (deleting those that do not exist there)."""
    for path in paths:
        exists = git(["cat-file", "-e", f"{commit}:{path}"], tree).ok
        if exists:
            git(["checkout", commit, "--", path], tree)
        else:
            target = tree / path
            if target.is_file() or target.is_symlink():
                target.unlink()


def current_patch(tree: Path, base: str) -> str:
    """The checkout's change against `base` as one unified diff, new files included."""
    git(["add", "-A", "--", ".", *NOT_IN_PATCH], tree)
    diff = git(["diff", "--cached", "--binary", "--no-color", "--no-ext-diff", base, "--", ".", *NOT_IN_PATCH], tree)
    git(["reset", "-q"], tree)
    return diff.stdout
