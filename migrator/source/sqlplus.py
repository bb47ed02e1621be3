"""Split one SQL*Plus script into pieces: statements, PL/SQL blocks, directives and errors.

Rules, as SQL*Plus applies them (with the default settings):

* A SQL statement ends at a `;` outside strings, quoted identifiers and comments, or at a line
  holding only `/`. Its piece text runs from its first token up to, *not including*, the `;`.
* PL/SQL (CREATE FUNCTION/PROCEDURE/PACKAGE/TRIGGER/TYPE..., DECLARE, BEGIN) ends only at a line
  holding only `/`. Its piece text runs from its first token through the last non-blank character
  before that line (normally `END name;`); the `/` line is not part of it.
* SQL*Plus commands (SET, PROMPT, REM, SPOOL, @file, ...) are recognised only as the first word of
  a line between statements; they run to the end of the line (a trailing `-` continues them).
* Comments and blank lines between statements are not code and belong to no piece; comments
  inside a statement stay in its text.
* Wrapped PL/SQL is not lexed: it runs to its `/` line as one WRAPPED piece.

Deviation: SQL*Plus (SQLBLANKLINES OFF) would end a SQL statement at a blank line; exports are
written with blank lines inside statements, so we do not. A `CREATE` that starts a line where a
new statement must begin (after `;` in PL/SQL, at parenthesis depth 0 in SQL) ends a statement
whose terminator is missing; that is reported as "missing-terminator".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from migrator.source import statement_kind as classify
from migrator.source.lexer import (
    COMMENT_KINDS,
    OP,
    STRING,
    UNTERMINATED,
    WORD,
    WS,
    Token,
    code_spans,
    is_slash_line,
    iter_tokens,
)

# Piece kinds.
STATEMENT = "statement"
DIRECTIVE = "directive"
SLASH = "slash"  # a '/' line with nothing to end: SQL*Plus re-runs the previous statement
WRAPPED = "wrapped"
ERROR = "error"

# SQL*Plus commands: full name → shortest accepted abbreviation.
_COMMANDS = {
    "ACCEPT": "ACC", "ARCHIVE": "ARCHIVE", "ATTRIBUTE": "ATTR", "BREAK": "BRE", "BTITLE": "BTI",
    "CLEAR": "CL", "COLUMN": "COL", "COMPUTE": "COMP", "CONNECT": "CONN", "COPY": "COPY",
    "DEFINE": "DEF", "DEL": "DEL", "DESCRIBE": "DESC", "DISCONNECT": "DISC", "EDIT": "ED",
    "EXECUTE": "EXEC", "EXIT": "EXIT", "GET": "GET", "HELP": "HELP", "HOST": "HO", "LOAD": "LOAD",
    "PASSWORD": "PASSW", "PAUSE": "PAU", "PRINT": "PRI", "PROMPT": "PRO", "QUIT": "QUIT",
    "RECOVER": "RECOVER", "REMARK": "REM", "REPFOOTER": "REPF", "REPHEADER": "REPH", "RUN": "R",
    "SAVE": "SAV", "SET": "SET", "SHOW": "SHO", "SHUTDOWN": "SHUTDOWN", "SPOOL": "SPO",
    "START": "STA", "STARTUP": "STARTUP", "STORE": "STORE", "TIMING": "TIMI", "TTITLE": "TTI",
    "UNDEFINE": "UNDEF", "VARIABLE": "VAR", "WHENEVER": "WHENEVER", "XQUERY": "XQUERY",
}  # fmt: skip
# `SET <x>` is SQL, not SQL*Plus, for these.
_SQL_SET = frozenset({"TRANSACTION", "ROLE", "CONSTRAINT", "CONSTRAINTS"})
_SYMBOL_COMMANDS = {"@": "@", "@@": "@@", "!": "HOST", "$": "HOST"}


@dataclass
class Piece:
    kind: str
    start: int
    end: int  # exclusive; text[start:end] is the piece's exact text
    head: classify.Head | None = None
    command: str = ""  # DIRECTIVE: the command's full name ("SET", "PROMPT", "@")
    code: str = ""  # ERROR: the issue code
    message: str = ""
    # Annotations that do not cover text of their own: (code, message).
    notes: list[tuple[str, str]] = field(default_factory=list)
    # Offsets of the terminator (';' or the '/' line) when there is one.
    terminator: tuple[int, int] | None = None


def command_name(word: str) -> str | None:
    """The SQL*Plus command a line's first word abbreviates, if any."""
    upper = word.upper()
    for full, shortest in _COMMANDS.items():
        if full.startswith(upper) and len(upper) >= len(shortest):
            return full
    return None


class _Splitter:
    def __init__(self, text: str):
        self.text = text
        self.n = len(text)
        self.pieces: list[Piece] = []

    # -- line helpers ----------------------------------------------------------------------
    def line_start(self, pos: int) -> int:
        return self.text.rfind("\n", 0, pos) + 1

    def line_end(self, pos: int) -> int:
        end = self.text.find("\n", pos)
        return self.n if end < 0 else end

    def first_on_line(self, pos: int) -> bool:
        return self.text[self.line_start(pos) : pos].strip() == ""

    def rstrip_end(self, start: int, end: int) -> int:
        """End of text[start:end] without trailing whitespace."""
        return start + len(self.text[start:end].rstrip())

    # -- top level -------------------------------------------------------------------------
    def run(self) -> list[Piece]:
        pos = 0
        while pos < self.n:
            tok = next((t for t in iter_tokens(self.text, pos) if t.kind != WS), None)
            if tok is None:
                break
            if tok.kind in COMMENT_KINDS:
                pos = tok.end
                continue
            if tok.kind == UNTERMINATED and tok.detail == "comment":
                pos = self.add_error(tok.start, self.n, "unterminated-comment",
                                     "comment opened here is never closed (*/ missing)")  # fmt: skip
                continue
            if self.first_on_line(tok.start):
                if is_slash_line(self.text, tok):
                    self.pieces.append(Piece(SLASH, tok.start, tok.start + 1, command="/"))
                    pos = tok.start + 1
                    continue
                command = self.directive(tok)
                if command:
                    pos = self.add_directive(tok.start, command)
                    continue
            pos = self.statement(tok.start)
        return self.pieces

    def directive(self, tok) -> str | None:
        word = tok.text
        if tok.kind == OP:
            if word == "@" and self.text.startswith("@@", tok.start):
                return "@@"
            return _SYMBOL_COMMANDS.get(word)
        if tok.kind != WORD:
            return None
        command = command_name(word)
        if command == "SET":
            rest = self.text[tok.end : self.line_end(tok.end)].split()
            if rest and rest[0].upper().rstrip(";") in _SQL_SET:
                return None
        return command

    def add_directive(self, start: int, command: str) -> int:
        end = self.line_end(start)
        # A trailing '-' continues a command on the next line (not REMARK's, which is a comment).
        while command != "REMARK" and self.text[start:end].rstrip().endswith("-") and end < self.n:
            end = self.line_end(end + 1)
        self.pieces.append(Piece(DIRECTIVE, start, self.rstrip_end(start, end), command=command))
        return end

    def add_error(self, start: int, end: int, code: str, message: str, head=None) -> int:
        self.pieces.append(Piece(ERROR, start, self.rstrip_end(start, end), head, code=code,
                                 message=message))  # fmt: skip
        return end

    # -- statements ------------------------------------------------------------------------
    def statement(self, start: int) -> int:
        head = classify.read_head(self.text, start, limit=12)
        if head.mode == classify.WRAPPED:
            return self.wrapped(start, head)
        return self.scan(start, head, block=head.mode == classify.BLOCK)

    def wrapped(self, start: int, head: classify.Head) -> int:
        pos = start
        while pos < self.n:
            line_end = self.line_end(pos)
            if self.text[pos:line_end].strip() == "/" and pos > start:
                end = self.rstrip_end(start, pos)
                self.pieces.append(Piece(WRAPPED, start, end, head, terminator=(pos, line_end)))
                return line_end
            pos = line_end + 1
        self.pieces.append(Piece(WRAPPED, start, self.rstrip_end(start, self.n), head))
        return self.n

    def scan(self, start: int, head: classify.Head, block: bool) -> int:
        """Find the end of the statement or block starting at `start`; return where to go on."""
        # spans, not Tokens: most code tokens are only looked at for their kind (code_spans)
        depth, text = 0, self.text
        prev: tuple[int, int] | None = None  # (start, end) of the code token before
        may_split = not (head.verb == "CREATE" and head.name == "schema")
        for kind, s, e, detail in code_spans(text, start):
            if kind == UNTERMINATED:
                return self.unterminated(start, Token(kind, text[s:e], s, e, detail), head)
            if kind == OP:
                ch = text[s:e]
                if ch == "/" and is_slash_line(text, Token(kind, ch, s, e)):
                    end = self.rstrip_end(start, self.line_start(s))
                    return self.finish(start, end, head, (s, e), e)
                if ch == ";" and prev is None:  # an empty statement: a stray terminator
                    self.pieces.append(Piece(SLASH, s, e, command=";"))
                    return e
                if ch == ";" and not block:
                    end = self.rstrip_end(start, s)
                    return self.finish(start, end, head, (s, e), e)
                depth += (ch == "(") - (ch == ")")
            elif kind == WORD and prev is not None and may_split and self.starts_statement(s, e, prev, block, depth):
                end = prev[1] if block else self.rstrip_end(start, s)
                piece_end = self.finish(start, end, head, None, end)
                self.pieces[-1].notes.append(("missing-terminator", (
                    "no '/' line after this PL/SQL block" if block else "no ';' after this statement")
                    + "; it was ended where the next CREATE begins"))  # fmt: skip
                return piece_end
            prev = (s, e)
        code = "unterminated-block" if block else "unterminated-statement"
        why = "no '/' line ends this PL/SQL block" if block else "no ';' or '/' ends this statement"
        return self.add_error(start, self.n, code, why + " before the end of the file", head)

    def starts_statement(self, start: int, end: int, prev: tuple[int, int], block: bool, depth: int) -> bool:
        """Does the word at text[start:end] (the code token before it at `prev`) begin a new CREATE?"""
        if end - start != 6 or self.text[start:end].upper() != "CREATE":
            return False
        if not self.first_on_line(start):
            return False
        if block:
            return self.text[prev[0] : prev[1]] == ";"
        return depth <= 0

    def unterminated(self, start: int, tok, head) -> int:
        line = self.text.count("\n", 0, tok.start) + 1
        return self.add_error(start, self.n, f"unterminated-{tok.detail}",
                              f"{tok.detail} opened on line {line} is never closed", head)  # fmt: skip

    def finish(self, start: int, end: int, head, terminator, resume: int) -> int:
        # The head is read again within the statement's bounds (index/trigger targets may lie
        # beyond the few tokens the mode needed).
        head = classify.read_head(self.text, start, end)
        self.pieces.append(Piece(STATEMENT, start, end, head, terminator=terminator))
        return resume


def split_script(text: str) -> list[Piece]:
    """Split a decoded SQL*Plus script into pieces, in order, without overlaps."""
    return _Splitter(text).run()


_SUBST: dict[str, re.Pattern[str]] = {}


def substitution_variables(text: str, start: int, end: int, define_char: str = "&") -> list[str]:
    """`&name` / `&&name` uses in code and strings of text[start:end] (SQL*Plus replaces them
    in both before Oracle sees the statement; comments are left alone here)."""
    if define_char not in text[start:end]:
        return []
    pattern = _SUBST.get(define_char)
    if pattern is None:
        pattern = _SUBST[define_char] = re.compile(re.escape(define_char) + r"{1,2}[\w$#]+")
    found: list[str] = []
    skip_to = start
    for tok in iter_tokens(text, start, end):
        if tok.start < skip_to or tok.kind in COMMENT_KINDS or tok.kind == WS:
            continue
        if tok.kind == OP and text[tok.start] == define_char:
            m = pattern.match(text, tok.start, end)
            if m:
                found.append(m.group())
                skip_to = m.end()
        elif tok.kind in (STRING, UNTERMINATED):
            found.extend(pattern.findall(text, tok.start, tok.end))
    return list(dict.fromkeys(found))
