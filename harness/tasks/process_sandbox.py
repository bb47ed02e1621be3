"""Run an untrusted program in a sandbox: a scrubbed environment, its own working directory, a
timeout that kills every process it started, and — where Linux user namespaces are available —
no network and a read-only view of the whole file system except the paths it may write.

Execution only; it knows nothing of what the program is (tests of a repository, a reproduction
script). Why this lives in `harness`: it is the process-level sibling of the execution role that
guards PostgreSQL, and any adapter that runs someone else's code needs exactly this.

How the namespace mode works (util-linux `unshare`, no root and no setuid helper needed):
1. an outer user namespace maps the caller to root, with new mount, PID (and network) namespaces;
2. inside it, the writable paths are bind-mounted onto themselves, every other mount is
   remounted read-only, and /dev/shm gets a private tmpfs;
3. an inner user namespace without a mapping runs the program as `nobody`: the mounts it
   inherits are locked (it can neither remount them writable nor unmount the binds) and it has
   no capabilities left after exec.
The PID namespace dies with its first process, so a timeout kills descendants that left the
process group too. What it does not do: limit CPU or memory beyond RLIMITs, hide files from
reading, or filter system calls (no seccomp).
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

NAMESPACES, NONE = "namespaces", "none"
ISOLATION_MODES = ("auto", NAMESPACES, NONE)
_SETUP = r"""
while [ "$1" != "--" ]; do mount --bind -- "$1" "$1"; shift; done; shift
while [ "$1" != "--" ]; do mount -o remount,bind,ro -- "$1" 2>/dev/null || true; shift; done; shift
if [ -d /dev/shm ]; then mount -t tmpfs -o size=256m,mode=1777 tmpfs /dev/shm 2>/dev/null || true; fi
cd -- "$(pwd -P)"  # re-enter the working directory through the new mounts
exec unshare --user --mount -- "$@"
"""
_KEEP_MOUNTS = ("/proc", "/dev/shm")  # /proc is the PID namespace's own; /dev/shm gets a tmpfs


class SandboxUnavailable(RuntimeError):
    """The isolation that was asked for cannot be had on this host (the message says why)."""


@dataclass(frozen=True)
class SandboxPolicy:
    cwd: Path
    env: Mapping[str, str]  # the complete environment: nothing of the caller's is inherited
    writable: tuple[Path, ...] = ()
    timeout_s: float = 60.0
    network: bool = False
    isolation: str = "auto"  # "namespaces" (required), "none" (scrubbed environment only), "auto"
    max_output_chars: int = 200_000  # the tail of each stream is kept
    file_size_limit: int = 1 << 30  # RLIMIT_FSIZE: a runaway writer stops at 1 GiB


@dataclass
class SandboxResult:
    returncode: int | None  # None when killed by the timeout
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float
    isolation: str  # what the program actually ran under
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


def scrubbed_env(
    *, path: Sequence[Path | str], home: Path, tmpdir: Path, extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    """A minimal environment: no credentials, no caller's PATH or PYTHONPATH or VIRTUAL_ENV."""
    env = {
        "PATH": os.pathsep.join([*(str(p) for p in path), "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": str(home),
        "TMPDIR": str(tmpdir),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "PIP_NO_INPUT": "1",
    }
    env.update(extra or {})
    return env


@functools.lru_cache(maxsize=1)
def namespace_support() -> tuple[bool, str]:
    """Whether the namespace mode works here, proven by a write that must fail and one that must
    succeed; the reason when it does not."""
    if shutil.which("unshare") is None:
        return False, "util-linux `unshare` is not installed"
    with tempfile.TemporaryDirectory(prefix="sbx-probe-") as tmp:
        ro, rw = Path(tmp, "ro"), Path(tmp, "rw")
        ro.mkdir()
        rw.mkdir()
        script = f"touch ok; touch {ro}/bad 2>/dev/null; exit 0"  # relative: the cwd must be writable
        env = scrubbed_env(path=[], home=rw, tmpdir=rw)
        try:
            proc = subprocess.run(
                _namespace_argv(["/bin/sh", "-c", script], [rw], network=False),
                env=env,
                cwd=rw,
                capture_output=True,
                text=True,
                timeout=20,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return False, f"unshare failed: {exc}"
        if proc.returncode != 0 or not (rw / "ok").exists():
            return False, f"user namespaces unavailable: {proc.stderr.strip()[:300] or proc.returncode}"
        if (ro / "bad").exists():
            return False, "read-only remount did not hold (a path outside the writable set was written)"
    return True, "user, mount, PID and network namespaces; read-only file system except the writable paths"


def resolve_isolation(requested: str) -> tuple[str, str]:
    """(mode, note) for a requested mode; raises SandboxUnavailable when namespaces are required
    and missing. `auto` falls back to `none` and says so in the note."""
    if requested not in ISOLATION_MODES:
        raise ValueError(f"isolation must be one of {ISOLATION_MODES}, got {requested!r}")
    if requested == NONE:
        return NONE, "scrubbed environment only: the program can write wherever this user can"
    ok, why = namespace_support()
    if ok:
        return NAMESPACES, why
    if requested == NAMESPACES:
        raise SandboxUnavailable(f"namespace isolation is not available: {why}")
    return NONE, f"namespace isolation unavailable ({why}); scrubbed environment only"


def run_sandboxed(argv: Sequence[str], policy: SandboxPolicy) -> SandboxResult:
    mode, note = resolve_isolation(policy.isolation)
    writable = [Path(p).resolve() for p in policy.writable]
    full = _namespace_argv(list(argv), writable, policy.network) if mode == NAMESPACES else list(argv)
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(
                full,
                cwd=policy.cwd,
                env=dict(policy.env),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,  # its own process group, killed as one on timeout
                preexec_fn=functools.partial(_limits, policy.file_size_limit),
            )
        except OSError as exc:
            return SandboxResult(None, "", f"cannot start {argv[0]}: {exc}", False, 0.0, mode, [note])
        timed_out = _wait(proc, policy.timeout_s)
        seconds = time.perf_counter() - started
        stdout, stderr = _tail(out, policy.max_output_chars), _tail(err, policy.max_output_chars)
    notes = [] if mode == NAMESPACES else [note]
    return SandboxResult(None if timed_out else proc.returncode, stdout, stderr, timed_out, seconds, mode, notes)


def _namespace_argv(argv: list[str], writable: Sequence[Path], network: bool) -> list[str]:
    keep = {str(p) for p in writable}
    mounts = [m for m in _mount_points() if m not in keep and not m.startswith(_KEEP_MOUNTS)]
    outer = ["unshare", "--user", "--map-root-user", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc"]
    if not network:
        outer.append("--net")
    return [*outer, "--", "/bin/sh", "-c", _SETUP, "sandbox", *map(str, writable), "--", *mounts, "--", *argv]


def _mount_points() -> list[str]:
    """Every mount point of this mount namespace, parents first (mountinfo escapes decoded)."""
    points = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        if len(fields) > 4:
            points.append(_unescape(fields[4]))
    return sorted(set(points), key=lambda p: (p.count("/"), p))


def _unescape(text: str) -> str:
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        text = text.replace(code, char)
    return text


def _limits(file_size: int) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))


def _wait(proc: subprocess.Popen, timeout_s: float) -> bool:
    try:
        proc.wait(timeout=timeout_s)
        return False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        return True


def _tail(fh, limit: int) -> str:
    fh.seek(0, os.SEEK_END)
    size = fh.tell()
    fh.seek(max(0, size - limit * 4))  # bytes, generously: UTF-8 is at most 4 per character
    text = fh.read().decode("utf-8", errors="replace")
    return text if len(text) <= limit else "[…]" + text[-limit:]
