"""The agent's action language: what a model answer may ask for, parsed into validated models.

An answer holds free reasoning, then one line `ACTION: <tool> <arguments>` and, for some tools, a
body after it:

    ACTION: read ledger/money.py 20-60
    ACTION: search "def split" ledger
    ACTION: list ledger
    ACTION: reproduce            + a ```python block (the script), or nothing to rerun it
    ACTION: test tests/test_money.py
    ACTION: edit ledger/money.py + SEARCH/REPLACE blocks (<<<<<<< SEARCH ... ======= ... >>>>>>> REPLACE)
    ACTION: patch                + a ```diff block (a unified diff)
    ACTION: revert [paths...]
    ACTION: submit [test targets...]

Anything else is a `BadAction` with a message the agent shows the model, never an exception.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import shlex
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

TOOLS = ("read", "search", "list", "reproduce", "test", "edit", "patch", "revert", "submit")
_ACTION = re.compile(r"^\s*ACTION:\s*(\S+)(.*)$", re.MULTILINE | re.IGNORECASE)
_FENCE = re.compile(r"^```([\w+-]*)\s*\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
_BLOCK = re.compile(r"^<{7} SEARCH\n(.*?)^={7}\n(.*?)^>{7} REPLACE\s*$", re.MULTILINE | re.DOTALL)
_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    thought: str = ""


class Read(_Action):
    tool: Literal["read"] = "read"
    path: str = Field(min_length=1)
    start: int = Field(1, ge=1)
    end: int | None = Field(None, ge=1)


class Search(_Action):
    tool: Literal["search"] = "search"
    text: str = Field(min_length=1)
    path: str = "."


class ListDir(_Action):
    tool: Literal["list"] = "list"
    path: str = "."


class Reproduce(_Action):
    tool: Literal["reproduce"] = "reproduce"
    script: str | None = None  # None: rerun the current reproduction


class Test(_Action):
    tool: Literal["test"] = "test"
    targets: tuple[str, ...] = ()


class Replacement(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    search: str
    replace: str


class Edit(_Action):
    tool: Literal["edit"] = "edit"
    path: str = Field(min_length=1)
    replacements: tuple[Replacement, ...] = Field(min_length=1)


class Patch(_Action):
    tool: Literal["patch"] = "patch"
    diff: str = Field(min_length=1)


class Revert(_Action):
    tool: Literal["revert"] = "revert"
    paths: tuple[str, ...] = ()


class Submit(_Action):
    tool: Literal["submit"] = "submit"
    targets: tuple[str, ...] = ()


Action = Annotated[
    Read | Search | ListDir | Reproduce | Test | Edit | Patch | Revert | Submit, Field(discriminator="tool")
]
MUTATING = ("edit", "patch", "revert")


class BadAction(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    tool: Literal["invalid"] = "invalid"
    message: str
    thought: str = ""


def parse_action(
    answer: str,
) -> Read | Search | ListDir | Reproduce | Test | Edit | Patch | Revert | Submit | BadAction:
    match = _ACTION.search(answer or "")
    if match is None:
        return BadAction(message=f"no `ACTION:` line in the answer (tools: {', '.join(TOOLS)})")
    tool, rest = match.group(1).lower(), match.group(2).strip()
    thought, body = answer[: match.start()].strip(), answer[match.end() :]
    if tool not in TOOLS:
        return BadAction(message=f"unknown tool {tool!r} (tools: {', '.join(TOOLS)})", thought=thought)
    try:
        args = shlex.split(rest)
    except ValueError as exc:
        return BadAction(message=f"cannot read the arguments of {tool}: {exc}", thought=thought)
    try:
        return _build(tool, args, body, thought)
    except (ValidationError, ValueError) as exc:
        return BadAction(message=f"{tool}: {_short(exc)}", thought=thought)


def _build(tool: str, args: list[str], body: str, thought: str):
    if tool == "read":
        return _read(args, thought)
    if tool == "search":
        if not args:
            raise ValueError('give the text to look for: search "text" [path]')
        return Search(text=args[0], path=args[1] if len(args) > 1 else ".", thought=thought)
    if tool == "list":
        return ListDir(path=args[0] if args else ".", thought=thought)
    if tool == "reproduce":
        return Reproduce(script=_fenced(body, ("python", "py", "")), thought=thought)
    if tool in ("test", "submit"):
        return (Test if tool == "test" else Submit)(targets=tuple(args), thought=thought)
    if tool == "edit":
        return _edit(args, body, thought)
    if tool == "patch":
        diff = _fenced(body, ("diff", "patch", ""))
        if diff is None:
            raise ValueError("put the unified diff in a ```diff block after the ACTION line")
        return Patch(diff=diff, thought=thought)
    return Revert(paths=tuple(args), thought=thought)


def _read(args: list[str], thought: str) -> Read:
    if not args:
        raise ValueError("give a path: read PATH [START-END]")
    start, end = 1, None
    if len(args) > 1:
        found = _RANGE.match(args[1])
        if not found:
            raise ValueError(f"line range {args[1]!r}: expected START or START-END")
        start, end = int(found.group(1)), int(found.group(2)) if found.group(2) else None
    return Read(path=args[0], start=start, end=end, thought=thought)


def _edit(args: list[str], body: str, thought: str) -> Edit:
    if len(args) != 1:
        raise ValueError("give exactly one path: edit PATH, then SEARCH/REPLACE blocks")
    blocks = [Replacement(search=s, replace=r) for s, r in _BLOCK.findall(body)]
    if not blocks:
        raise ValueError("no SEARCH/REPLACE block (<<<<<<< SEARCH / ======= / >>>>>>> REPLACE) after the ACTION line")
    return Edit(path=args[0], replacements=tuple(blocks), thought=thought)


def _fenced(body: str, languages: tuple[str, ...]) -> str | None:
    for lang, text in _FENCE.findall(body):
        if lang.lower() in languages:
            return text
    return None


def _short(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        return f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
    return str(exc)


def _path(path: str) -> str:
    return posixpath.normpath(path.strip()).lstrip("/")


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def normalized(action) -> str:
    """The action reduced to what makes it the same action again (for repeated-action counts)."""
    if isinstance(action, Read):
        return f"read {_path(action.path)}"
    if isinstance(action, Search):
        return f"search {action.text.strip().lower()} {_path(action.path)}"
    if isinstance(action, ListDir):
        return f"list {_path(action.path)}"
    if isinstance(action, Edit):
        return f"edit {_path(action.path)} {_digest(repr(action.replacements))}"
    if isinstance(action, Patch):
        return f"patch {_digest(action.diff)}"
    if isinstance(action, Revert):
        return " ".join(["revert", *sorted(_path(p) for p in action.paths)])
    if isinstance(action, Test | Submit):
        return " ".join([action.tool, *action.targets])
    if isinstance(action, Reproduce):
        return "reproduce" + (f" {_digest(action.script)}" if action.script else "")
    return f"invalid {action.message[:40]}"
