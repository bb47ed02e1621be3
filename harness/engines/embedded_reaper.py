"""Leftovers of a killed run: an embedded server still running on a folder nobody owns.

The embedded server is a daemon (pg_ctl start), so a `migrate` killed with SIGKILL leaves it
running and its data folder (often in /dev/shm, i.e. RAM) in place. Each run writes an owner file
(pid and process start time) into its folder; the next start reaps every folder whose owner is
gone: the postmaster gets SIGQUIT (immediate shutdown: it removes its shared memory and pid file),
SIGKILL if it does not go, then the folder is deleted.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

OWNER_FILE = "migrator-owner.json"
PREFIX = "migrator-pg-"
GRACE_SECONDS = 60.0  # a folder without an owner file may be one being created right now


def claim_workdir(workdir: Path, pid: int | None = None) -> None:
    """Write the owner file: this process, or `pid` (the shared server names its own postmaster,
    so its folder lives exactly as long as the server does)."""
    import psutil

    me = psutil.Process(pid or os.getpid())
    (workdir / OWNER_FILE).write_text(json.dumps({"pid": me.pid, "started": me.create_time()}), encoding="utf-8")


def postmaster_owner(workdir: Path):
    """The live postmaster of `workdir/pgdata` when it is also the folder's recorded owner."""
    proc = _postmaster(workdir / "pgdata")
    if proc is None or not _owner_alive(workdir):
        return None
    try:
        owner = json.loads((workdir / OWNER_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return proc if int(owner.get("pid", -1)) == proc.pid else None


def _owner_alive(workdir: Path) -> bool | None:
    """True/False from the owner file; None when there is none (yet)."""
    import psutil

    try:
        owner = json.loads((workdir / OWNER_FILE).read_text(encoding="utf-8"))
        proc = psutil.Process(int(owner["pid"]))
        if proc.status() == psutil.STATUS_ZOMBIE:  # dead, not yet collected by its parent
            return False
        return abs(proc.create_time() - float(owner["started"])) < 1.0
    except (OSError, ValueError, KeyError, TypeError):
        return None
    except psutil.Error:
        return False


def _postmaster(pgdata: Path):
    """The live postmaster serving `pgdata`, if any (checked by its command line, not just a pid)."""
    import psutil

    try:
        pid = int((pgdata / "postmaster.pid").read_text(encoding="utf-8").splitlines()[0])
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return None
        if str(pgdata) in " ".join(proc.cmdline()) or proc.cwd() == str(pgdata):
            return proc
    except (OSError, ValueError, IndexError, psutil.Error):
        pass
    return None


def stop_postmaster(pgdata: Path, timeout: float = 10.0) -> bool:
    """Immediate shutdown of the server on `pgdata`; True when one was running."""
    import psutil

    proc = _postmaster(pgdata)
    if proc is None:
        return False
    with contextlib.suppress(psutil.Error):
        proc.send_signal(signal.SIGQUIT)
        try:
            proc.wait(timeout)
        except psutil.TimeoutExpired:
            proc.kill()
            proc.wait(5)
    return True


def reap_stale_workdirs(root: str | None) -> list[Path]:
    """Stop and delete every embedded-server folder under `root` whose run is dead. Returns them."""
    base = Path(root or tempfile.gettempdir())
    reaped: list[Path] = []
    try:
        candidates = [p for p in base.iterdir() if p.name.startswith(PREFIX) and p.is_dir()]
    except OSError:
        return reaped
    for workdir in candidates:
        alive = _owner_alive(workdir)
        if alive or (alive is None and time.time() - _mtime(workdir) < GRACE_SECONDS):
            continue
        stop_postmaster(workdir / "pgdata")
        shutil.rmtree(workdir, ignore_errors=True)
        reaped.append(workdir)
    return reaped


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
