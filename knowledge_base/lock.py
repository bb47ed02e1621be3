"""One writer per store: an exclusive OS lock (flock) on the store directory itself.

SQLite alone does not make two writers safe here: each writer also keeps in-memory indexes, the
FAISS file and the JSONL event mirror, and an import decides what is new by reading before it
writes. So a writable KnowledgeBase holds this lock from before it opens SQLite until after its
last flush. The kernel releases it when the process dies, so a crash never leaves a stale lock.
Readers (read-only opens, snapshots) never take it.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

POLL_SECONDS = 0.05


class StoreBusy(RuntimeError):
    """Another writer held the store for longer than we were willing to wait."""


class StoreLock:
    def __init__(self, fd: int, root: Path):
        self._fd: int | None = fd
        self.root = root

    @classmethod
    def acquire(cls, root: Path, timeout: float) -> StoreLock:
        """Wait up to `timeout` seconds for the exclusive lock on directory `root` (created if missing)."""
        root.mkdir(parents=True, exist_ok=True)
        fd = os.open(root, os.O_RDONLY)
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return cls(fd, root)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise StoreBusy(
                        f"{root} is being written by another process; waited {timeout:g} s "
                        "(one writer at a time: try again when it has finished)"
                    ) from None
                time.sleep(POLL_SECONDS)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None
