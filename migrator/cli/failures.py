"""What the command line says when a command does not end normally, other than with a user error
of ours (MigratorError, HarnessError): an interruption, a closed pipe, the file system or the
PostgreSQL server refusing something.

None of these is a bug in migrator: a folder the user may not write, a full disk, a DSN that is
not one, a server that refuses the connection are the user's environment, reported as bad usage
(exit 2) with the message the system gave; a reader that closed our output (`| head`) ends the
command silently; Ctrl-C ends it with one line saying what was kept (exit 130, as a shell reports
an interrupted program).
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a program ended by Ctrl-C
CLOSED_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a writer whose reader went away


def environment_problem(exc: BaseException) -> str | None:
    """The message for an exception that is the environment's refusal, not a bug; else None."""
    if isinstance(exc, OSError):
        return os_error_message(exc)
    # psycopg is imported only if the exception came from it: most commands never load it
    if type(exc).__module__.split(".")[0] == "psycopg":
        import psycopg

        if isinstance(exc, psycopg.OperationalError):
            return "PostgreSQL: " + " ".join(str(exc).split())
        if isinstance(exc, psycopg.ProgrammingError) and _is_conninfo_error(exc):
            return "not a PostgreSQL connection string (DSN): " + " ".join(str(exc).split())
    return None


def _is_conninfo_error(exc: BaseException) -> bool:
    """A DSN libpq could not parse (raised before any connection, with no SQL state); a
    ProgrammingError with a SQL state is our SQL's fault, a bug."""
    return getattr(exc, "sqlstate", None) is None and "connection" in str(exc)


def os_error_message(exc: OSError) -> str:
    """`cannot use PATH: Permission denied` — the file the system named, and its reason."""
    reason = exc.strerror or str(exc)
    if exc.filename is None:
        return reason
    where = os.fsdecode(exc.filename)
    if exc.filename2 is not None:
        where += " -> " + os.fsdecode(exc.filename2)
    return f"cannot use {where}: {reason}"


def silence_stdout() -> None:
    """After the reader of stdout went away: point stdout at /dev/null, so that the interpreter's
    own flush at exit does not fail again and print 'Exception ignored ... BrokenPipeError'."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor behind stdout (a test's capture): nothing to do
        pass


@contextmanager
def quiet_after_ctrl_c() -> Iterator[None]:
    """Inside, Ctrl-C raises KeyboardInterrupt as always, and from then on psycopg logs nothing
    below CRITICAL: a query cut off mid-way makes its connection's cleanup log "error ignored in
    rollback ... another command is already in progress" for every open transaction (from
    psycopg's child loggers too), noise that would bury the one line an interrupted command
    prints. Only in the main thread (where signal handlers live); elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    psycopg_log = logging.getLogger("psycopg")
    level = psycopg_log.level

    def on_sigint(signum, frame):
        psycopg_log.setLevel(logging.CRITICAL)
        signal.default_int_handler(signum, frame)

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        psycopg_log.setLevel(level)
