"""What SQL*Plus commands in an export mean for the reader, and how they are reported.

They are never code. A few change how the rest of the script reads: SET DEFINE/SCAN (whether
`&name` is a substitution variable, and which character marks it), DEFINE (values we can quote in
reports), CONNECT (the owner of what follows) and @file/START (another script that runs here).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from migrator.source.units import Severity

_WHY = {
    "SET": "sets a SQL*Plus session option",
    "PROMPT": "prints a line in SQL*Plus",
    "REMARK": "is a SQL*Plus comment",
    "SPOOL": "writes SQL*Plus output to a file",
    "WHENEVER": "sets what SQL*Plus does on an error",
    "EXIT": "ends the SQL*Plus session",
    "QUIT": "ends the SQL*Plus session",
    "DEFINE": "defines a substitution variable",
    "UNDEFINE": "removes a substitution variable",
    "SHOW": "shows SQL*Plus state (e.g. compilation errors)",
    "COLUMN": "formats SQL*Plus output",
    "TTITLE": "formats SQL*Plus output",
    "BTITLE": "formats SQL*Plus output",
    "EXECUTE": "runs one PL/SQL call in SQL*Plus; it is not converted as a unit",
    "HOST": "runs an operating-system command",
    # SQLcl: LOAD [TABLE] table file — the rows are in a file beside the script, not in the export
    "LOAD": "is SQLcl's loader of a CSV file into a table; the file's rows are not in the script (load them with `migrator data load` or COPY)",
    "CONNECT": "connects as another user (the owner of what follows)",
    "/": "re-runs the previous statement in SQL*Plus (no statement of its own)",
}


@dataclass
class ScriptState:
    """SQL*Plus state while one file is read."""

    schema: str
    define_char: str | None = "&"
    defines: dict[str, str] = field(default_factory=dict)


@dataclass
class DirectiveNote:
    severity: Severity
    message: str


def interpret(command: str, text: str, state: ScriptState, file: str, files: set[str]) -> DirectiveNote:
    """Apply the command to `state` and say what it is."""
    args = text.split(None, 1)[1] if len(text.split(None, 1)) > 1 else ""
    if command == "@" and text.startswith("@"):
        args = text[1:].strip()
    if command == "@@":
        args = text[2:].strip()
    if command == "SET":
        _set(args, state)
    elif command == "DEFINE":
        _define(args, state)
    elif command == "CONNECT":
        _connect(args, state)
    elif command in ("@", "@@", "START"):
        return _include(command, args, file, files)
    why = _WHY.get(command, "is a SQL*Plus command")
    severity = Severity.WARNING if command in ("EXECUTE", "HOST", "LOAD") else Severity.INFO
    name = "'/'" if command == "/" else command
    if command == "LOAD":
        return DirectiveNote(severity, f"{text.strip()}: SQLcl LOAD {why}; not converted")
    return DirectiveNote(severity, f"SQL*Plus {name} {why}; not code, not converted")


def _set(args: str, state: ScriptState) -> None:
    words = args.replace("=", " ").split()
    for option, value in zip(words, words[1:]):
        option, value = option.upper(), value.strip("'\"; ")
        if option in ("DEF", "DEFI", "DEFIN", "DEFINE", "SCAN"):
            if value.upper() == "OFF":
                state.define_char = None
            elif value.upper() == "ON":
                state.define_char = "&"
            elif len(value) == 1 and option != "SCAN":
                state.define_char = value


def _define(args: str, state: ScriptState) -> None:
    name, sep, value = args.partition("=")
    if sep and name.strip():
        state.defines[name.strip().lower()] = value.strip().strip("'\"")


def _connect(args: str, state: ScriptState) -> None:
    user = args.split("/", 1)[0].split("@", 1)[0].strip().strip('"')
    if user and " " not in user:
        state.schema = user.lower()


def _include(command: str, args: str, file: str, files: set[str]) -> DirectiveNote:
    target = args.split()[0].rstrip(";") if args.split() else ""
    if not target:
        return DirectiveNote(Severity.WARNING, f"SQL*Plus {command} with no script name")
    if "&" in target:
        return DirectiveNote(Severity.WARNING, f"runs script {target}, named by a substitution variable")
    if not posixpath.splitext(target)[1]:
        target += ".sql"  # SQL*Plus appends the default extension
    base = posixpath.dirname(file) if command == "@@" else ""
    resolved = posixpath.normpath(posixpath.join(base, target.replace("\\", "/")))
    lowered = {f.lower(): f for f in files}
    if resolved.lower() in lowered:
        found = lowered[resolved.lower()]
        return DirectiveNote(Severity.INFO, f"runs script {found}, which is read on its own here")
    return DirectiveNote(
        Severity.WARNING, f"runs script {target}, which is not in the schema directory (its objects are missing)"
    )
