"""The files of a schema directory, links followed, and every entry that could not be read listed.

Links to files and to directories are followed: an export often links a shared folder in. A link
that cannot be followed — a loop of links, a directory link back to one of its own ancestors (the
walk would never end), a link to nothing — and anything that is neither file nor directory is
reported (file, reason), never skipped silently. Hidden files and folders are left out, as a shell
glob leaves them out.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from migrator.source.units import Severity


@dataclass(frozen=True)
class Unread:
    rel: str  # '/'-separated path below the root, as the link or entry is named there
    code: str  # symlink-loop | broken-symlink | unreadable-file | skipped-file
    severity: Severity
    message: str


@dataclass
class _Walk:
    files: list[str]
    unread: list[Unread]


def list_files(root: Path) -> tuple[list[str], list[Unread]]:
    """Regular files below `root` ('/'-separated, sorted) and the entries that were not read."""
    walk = _Walk([], [])
    _directory(walk, root, "", (root.resolve(),))
    return sorted(walk.files), sorted(walk.unread, key=lambda u: u.rel)


def _directory(walk: _Walk, directory: Path, prefix: str, chain: tuple[Path, ...]) -> None:
    """`chain`: the real paths of this directory and its ancestors, to see a link loop coming."""
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError as exc:
        walk.unread.append(
            Unread(
                prefix.rstrip("/") or ".",
                "unreadable-file",
                Severity.ERROR,
                f"cannot list this directory: {exc.strerror or exc}",
            )
        )
        return
    for entry in entries:
        if not entry.name.startswith("."):
            _entry(walk, Path(entry.path), prefix + entry.name, chain)


def _entry(walk: _Walk, path: Path, rel: str, chain: tuple[Path, ...]) -> None:
    target = _followed(walk, path, rel) if path.is_symlink() else path
    if target is None:
        return
    if target.is_dir():
        real = target.resolve()
        if real in chain:
            back = "the schema directory" if real == chain[0] else os.path.relpath(real, chain[0])
            walk.unread.append(
                Unread(
                    rel,
                    "symlink-loop",
                    Severity.ERROR,
                    f"symbolic link to {os.readlink(path)} points back to {back} "
                    "(a directory containing it): not followed",
                )
            )
            return
        _directory(walk, path, rel + "/", chain + (real,))
    elif target.is_file():
        walk.files.append(rel)
    else:
        walk.unread.append(
            Unread(
                rel,
                "skipped-file",
                Severity.WARNING,
                "neither a file nor a directory (a device, pipe or socket); not read",
            )
        )


def _followed(walk: _Walk, link: Path, rel: str) -> Path | None:
    """What a link points to, or None (and an Unread) when it points nowhere."""
    try:
        return link.resolve(strict=True)
    except RuntimeError:  # Python < 3.13 reports a link loop this way
        code, why = "symlink-loop", "symbolic link loop"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            code, why = "symlink-loop", "symbolic link loop"
        else:
            code, why = "broken-symlink", f"broken symbolic link ({exc.strerror or exc})"
    walk.unread.append(Unread(rel, code, Severity.ERROR, f"{why}: {rel} -> {os.readlink(link)}; not read"))
    return None
