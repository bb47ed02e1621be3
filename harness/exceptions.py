"""The one base for user errors in the harness, and the reading of the files users give it.

A user error is about what the user gave us: a server that cannot be used, a scenario,
transcript, baseline or fix-cycle file that cannot be read, a fix-cycle step the cycle's state
forbids. `migrator`'s command line reports any `HarnessError` as bad usage (its message, no
traceback); `harness` may not import `migrator`, so it keeps this base of its own beside
`migrator.errors.MigratorError`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

T = TypeVar("T")


class HarnessError(Exception):
    """A problem with the harness's input or environment; the message says what and where."""


class InputFileError(HarnessError):
    """A file the harness was given cannot be read, is not YAML/JSON, or does not validate."""


def validation_reasons(exc: ValidationError) -> str:
    """A pydantic error as one line: `field.path: reason; ...` (a validator's own message as is)."""
    return "; ".join(
        f"{'.'.join(map(str, e['loc'])) or 'file'}: {e['msg'].removeprefix('Value error, ')}" for e in exc.errors()
    )


def read_input(path: Path, what: str, parse: Callable[[str], T]) -> T:
    """`parse(text of path)`, with every way the file can be bad raised as one InputFileError."""
    import yaml  # here: every command imports this module (HarnessError), few read YAML

    try:
        return parse(path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        raise InputFileError(f"{what} {path}: {validation_reasons(exc)}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFileError(f"{what} {path}: cannot read: {exc}") from None
    except yaml.YAMLError as exc:
        raise InputFileError(f"{what} {path}: not valid YAML: {exc}") from None
