"""One virtualenv per repository and environment commit, built once from the repository's own
requirements and reused by every instance (and every process: builds are locked and published
atomically).

The environment holds the repository's dependencies, not the repository: each instance's checkout
is put on the import path when its tests run, so one environment serves every worktree. The
interpreter is the tool's base Python (never the tool's virtualenv); `--system-site-packages`
reuses what that base interpreter has installed (offline, read-only in the sandbox). pip runs in
the sandbox too, with network, and writes only into the environment being built.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from harness.tasks.process_sandbox import SandboxPolicy, run_sandboxed, scrubbed_env
from harness.tasks.pytest_runs import PythonEnv
from migrator.agent.tasks.swe.instances import SweInstance
from migrator.agent.tasks.swe.repos import RepoError, git, resolve_commit

REQUIREMENT_FILES = (
    "requirements.txt",
    "requirements-dev.txt",
    "requirements-test.txt",
    "requirements_test.txt",
    "test-requirements.txt",
    "dev-requirements.txt",
    "requirements/test.txt",
    "requirements/dev.txt",
)
MARKER = "migrator-env.json"


class EnvBuildError(RuntimeError):
    """The repository's environment could not be built (pip's own words are in the message)."""


@dataclass(frozen=True)
class EnvOptions:
    cache_dir: Path
    base_python: Path | None = None  # default: the interpreter the tool's virtualenv was made from
    system_site_packages: bool = False
    offline: bool = False  # pip --no-index (with the user's find-links)
    # Distributions copied from the running interpreter into each new environment before pip
    # runs (with their requirements): an offline install of, e.g., pytest for repositories whose
    # requirements pip would otherwise fetch. Files are copied; the tool's environment is never
    # put on the new one's path.
    seed: tuple[str, ...] = ()
    isolation: str = "auto"
    build_timeout_s: float = 1800.0


def base_python() -> Path:
    """The interpreter the running one was made from: a venv's `home`, never the venv itself."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    return Path(base).resolve()


def requirements_at(clone: Path, commit: str) -> dict[str, str]:
    """The repository's requirement files as they are at `commit`."""
    found = {}
    for name in REQUIREMENT_FILES:
        res = git(["show", f"{commit}:{name}"], clone)
        if res.ok:
            found[name] = res.stdout
    return found


def env_key(instance: SweInstance, clone: Path, options: EnvOptions) -> tuple[str, dict[str, str]]:
    commit = resolve_commit(clone, instance.environment_setup_commit or instance.base_commit)
    reqs = requirements_at(clone, commit)
    python = options.base_python or base_python()
    material = json.dumps(
        [instance.repo, reqs, str(python), options.system_site_packages, options.seed, sys.version_info[:2]],
        sort_keys=True,
    )
    return hashlib.sha256(material.encode()).hexdigest()[:16], reqs


def ensure_env(instance: SweInstance, clone: Path, options: EnvOptions) -> PythonEnv:
    """The environment for this instance's repository (built on first use)."""
    key, reqs = env_key(instance, clone, options)
    folder = options.cache_dir / f"{instance.repo.replace('/', '__')}-{key}"
    python = folder / "bin" / "python"
    if (folder / MARKER).is_file():
        return PythonEnv(python)
    options.cache_dir.mkdir(parents=True, exist_ok=True)
    with _lock(options.cache_dir / f".{folder.name}.lock"):
        if not (folder / MARKER).is_file():  # another process may have built it meanwhile
            _build(folder, reqs, instance, options)
    return PythonEnv(python)


@contextlib.contextmanager
def _lock(path: Path):
    with open(path, "w") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _build(folder: Path, reqs: dict[str, str], instance: SweInstance, options: EnvOptions) -> None:
    staging = folder.with_name(folder.name + ".building")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(folder, ignore_errors=True)
    python = options.base_python or base_python()
    # Created where it will live (a virtualenv's scripts hold absolute paths), without pip of its
    # own: the base interpreter's pip installs into it (`pip --python`), which saves ensurepip.
    site = ["--system-site-packages"] if options.system_site_packages else []
    args = [str(python), "-m", "venv", "--without-pip", *site, str(folder)]
    made = subprocess.run(args, capture_output=True, text=True, env=_plain_env())
    if made.returncode != 0:
        raise EnvBuildError(f"{instance.repo}: cannot create a virtualenv: {made.stderr.strip()[-800:]}")
    staging.mkdir(parents=True)
    try:
        seed_distributions(folder, options.seed)
        for name, text in reqs.items():
            target = staging / "req" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            _pip(folder, staging, ["-r", str(target)], instance, options)
        if not _has_pytest(folder, staging, options):
            _pip(folder, staging, ["pytest"], instance, options)
        (folder / MARKER).write_text(
            json.dumps({"repo": instance.repo, "requirements": sorted(reqs), "built_at": time.time()}), encoding="utf-8"
        )
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def seed_distributions(folder: Path, names: tuple[str, ...]) -> list[str]:
    """Copy installed distributions `names` and everything they require into the virtualenv at
    `folder` (its site-packages only: console scripts are left out). Returns what was copied."""
    if not names:
        return []
    from importlib import metadata

    site = next((folder / "lib").glob("python*/site-packages"))
    copied = []
    for dist in _closure(names, metadata):
        for file in dist.files or ():
            if file.parts and file.parts[0] == "..":
                continue  # scripts outside site-packages hold the tool's interpreter path
            src, dest = Path(file.locate()), site / file
            if src.is_file():
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest)
        copied.append(f"{dist.metadata['Name']}=={dist.version}")
    return copied


def _closure(names, metadata) -> list:
    from packaging.requirements import Requirement

    seen: dict[str, object] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        key = name.lower().replace("_", "-")
        if key in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise EnvBuildError(f"cannot seed {name}: it is not installed in {sys.prefix}") from None
        seen[key] = dist
        for text in dist.requires or ():
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return list(seen.values())


def _plain_env() -> dict[str, str]:
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8"}


def _sandbox(folder: Path, staging: Path, options: EnvOptions, timeout: float, network: bool) -> SandboxPolicy:
    # pip's own settings (an index, find-links, a certificate) are the user's to give; nothing else
    # of the caller's environment reaches the build.
    pip_vars = {k: v for k, v in os.environ.items() if k.startswith("PIP_")}
    env = scrubbed_env(path=[folder / "bin"], home=staging, tmpdir=staging, extra={**pip_vars, "PIP_NO_INPUT": "1"})
    return SandboxPolicy(
        cwd=staging,
        env=env,
        writable=(folder, staging),
        timeout_s=timeout,
        network=network,
        isolation=options.isolation,
    )


def _pip_prefix(folder: Path, staging: Path, options: EnvOptions) -> list[str]:
    """pip for the new environment: the base interpreter's (pip >= 22.3 installs into another
    interpreter with --python), else pip bootstrapped into the environment itself."""
    python = options.base_python or base_python()
    probe = subprocess.run([str(python), "-m", "pip", "--version"], capture_output=True, text=True, env=_plain_env())
    found = re.match(r"pip (\d+)\.(\d+)", probe.stdout)
    if probe.returncode == 0 and found and (int(found.group(1)), int(found.group(2))) >= (22, 3):
        return [str(python), "-m", "pip", "--python", str(folder / "bin" / "python")]
    boot = [str(folder / "bin" / "python"), "-m", "ensurepip", "--default-pip"]
    res = run_sandboxed(boot, _sandbox(folder, staging, options, 600, network=False))
    if not res.ok:
        raise EnvBuildError(f"cannot bootstrap pip into {folder}: {(res.stderr or res.stdout).strip()[-600:]}")
    return [str(folder / "bin" / "python"), "-m", "pip"]


def _pip(folder: Path, staging: Path, args: list[str], instance: SweInstance, options: EnvOptions) -> None:
    argv = [*_pip_prefix(folder, staging, options), "install", "--disable-pip-version-check", "-q"]
    argv += (["--no-index"] if options.offline else []) + args
    res = run_sandboxed(argv, _sandbox(folder, staging, options, options.build_timeout_s, network=not options.offline))
    if not res.ok:
        why = "timed out" if res.timed_out else (res.stderr or res.stdout).strip()[-1200:]
        raise EnvBuildError(f"{instance.repo}: pip install {' '.join(args)} failed: {why}")


def _has_pytest(folder: Path, staging: Path, options: EnvOptions) -> bool:
    argv = [str(folder / "bin" / "python"), "-c", "import pytest"]
    return run_sandboxed(argv, _sandbox(folder, staging, options, 120, network=False)).ok


__all__ = ["EnvOptions", "EnvBuildError", "RepoError", "base_python", "ensure_env", "requirements_at"]
