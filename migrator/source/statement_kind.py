"""Read the head of one statement: what kind of object it creates or touches, and its name.

Only the first tokens of a statement are looked at (comments and hints skipped), so this is
cheap and does not depend on the statement being complete. The splitter asks for the *mode*
(does SQL*Plus end it at `;` or at a `/` line, or is it wrapped PL/SQL) before it scans the body.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

from migrator.source.lexer import NAME_KINDS, OP, WORD, Token, code_tokens, normalize_identifier
from migrator.source.units import UnitKind

SQL = "sql"  # ended by ';' (or a '/' line)
BLOCK = "block"  # PL/SQL: ended only by a '/' line
WRAPPED = "wrapped"  # obfuscated PL/SQL: the body is not lexed at all

# Statement verbs that are SQL (so an unknown CREATE/DROP/... is "other SQL", not prose).
SQL_VERBS = frozenset(
    """CREATE ALTER DROP INSERT UPDATE DELETE MERGE SELECT WITH GRANT REVOKE COMMENT DECLARE
    BEGIN TRUNCATE RENAME COMMIT ROLLBACK SAVEPOINT SET LOCK CALL EXPLAIN ANALYZE AUDIT NOAUDIT
    PURGE FLASHBACK ASSOCIATE DISASSOCIATE""".split()
)
# Transaction control is harmless in an export; it is reported at INFO, not WARNING.
TRANSACTION_VERBS = frozenset({"COMMIT", "ROLLBACK", "SAVEPOINT", "SET"})

_CREATE_MODIFIERS = frozenset(
    """OR REPLACE EDITIONABLE NONEDITIONABLE EDITIONING FORCE NOFORCE NO UNIQUE BITMAP MULTIVALUE
    PUBLIC GLOBAL PRIVATE TEMPORARY SHARDED DUPLICATED BLOCKCHAIN IMMUTABLE""".split()
)
_CREATE_KINDS = {
    "TABLE": UnitKind.TABLE,
    "INDEX": UnitKind.INDEX,
    "SEQUENCE": UnitKind.SEQUENCE,
    "VIEW": UnitKind.VIEW,
    "FUNCTION": UnitKind.FUNCTION,
    "PROCEDURE": UnitKind.PROCEDURE,
    "PACKAGE": UnitKind.PACKAGE_SPEC,
    "TRIGGER": UnitKind.TRIGGER,
    "TYPE": UnitKind.TYPE,
    "SYNONYM": UnitKind.SYNONYM,
}
_BODIES = {UnitKind.PACKAGE_SPEC: UnitKind.PACKAGE_BODY, UnitKind.TYPE: UnitKind.TYPE_BODY}
# CREATE forms SQL*Plus reads in PL/SQL mode (ended by '/'), even when we do not migrate them.
_BLOCK_CREATES = frozenset({"FUNCTION", "PROCEDURE", "PACKAGE", "TRIGGER", "TYPE", "JAVA", "LIBRARY"})


@dataclass
class Head:
    verb: str  # first word, upper case ("" when the statement does not start with a word)
    kind: UnitKind | None  # None: not recognised as SQL at all
    mode: str = SQL
    schema: str | None = None  # None: the run's (or session's) current schema
    name: str | None = None
    target: tuple[str | None, str] | None = None  # (schema, name) of the attached table


class _Cursor:
    """The head's code tokens with a position; words are compared upper case."""

    def __init__(self, text: str, tokens: Iterator[Token]):
        # Tokens are pulled only as far as the head is read: most heads need a handful.
        self.text, self.source, self.i = text, tokens, 0
        self.tokens: list[Token] = []

    def at(self, j: int) -> Token | None:
        while len(self.tokens) <= j:
            token = next(self.source, None)
            if token is None:
                return None
            self.tokens.append(token)
        return self.tokens[j]

    def word(self, offset: int = 0) -> str:
        token = self.at(self.i + offset)
        return token.text.upper() if token is not None and token.kind == WORD else ""

    def symbol(self) -> str:
        token = self.at(self.i)
        return token.text if token is not None and token.kind == OP else ""

    def accept(self, *words: str) -> bool:
        if self.word() in words:
            self.i += 1
            return True
        return False

    def skip_to(self, word: str) -> bool:
        while self.at(self.i) is not None:
            if self.accept(word):
                return True
            self.i += 1
        return False

    def name(self) -> list[str]:
        """A possibly dotted name: identifier ('.' identifier)*, normalized."""
        parts: list[str] = []
        while (token := self.at(self.i)) is not None and token.kind in NAME_KINDS:
            parts.append(normalize_identifier(token.text))
            self.i += 1
            if self.symbol() != "." or not parts:
                break
            self.i += 1
        return parts


def read_head(text: str, start: int, end: int | None = None, limit: int = 160) -> Head:
    cur = _Cursor(text, islice(code_tokens(text, start, end), limit))
    if cur.symbol() == "<<":  # a labelled anonymous block
        return Head("<<", UnitKind.ANONYMOUS_BLOCK, BLOCK, name="block")
    verb = cur.word()
    cur.i += 1
    if verb == "CREATE":
        return _create(cur)
    reader = _READERS.get(verb)
    if reader is not None:
        return reader(cur, verb)
    if verb in SQL_VERBS:
        return Head(verb, UnitKind.OTHER, name=verb.lower())
    return Head(verb, None)


def _split(parts: list[str]) -> tuple[str | None, str]:
    if not parts:
        return None, "unnamed"
    if len(parts) == 1:
        return None, parts[0]
    return parts[-2], parts[-1]


def _create(cur: _Cursor) -> Head:
    while cur.word() in _CREATE_MODIFIERS:
        cur.i += 1
    obj = cur.word()
    cur.i += 1
    mode = BLOCK if obj in _BLOCK_CREATES else SQL
    kind = _CREATE_KINDS.get(obj, UnitKind.OTHER)
    if obj == "MATERIALIZED" and cur.accept("VIEW"):
        kind = UnitKind.OTHER if cur.word() == "LOG" else UnitKind.MATERIALIZED_VIEW
    if kind in _BODIES and cur.accept("BODY"):
        kind = _BODIES[kind]
    if cur.word() == "IF" and cur.word(1) == "NOT" and cur.word(2) == "EXISTS":
        cur.i += 3
    if kind is UnitKind.OTHER:
        return Head("CREATE", kind, mode, name=(obj or "create").lower())
    schema, name = _split(cur.name())
    if mode == BLOCK and cur.word() == "WRAPPED":
        mode = WRAPPED
    head = Head("CREATE", kind, mode, schema, name)
    if kind in (UnitKind.INDEX, UnitKind.TRIGGER) and cur.skip_to("ON"):
        head.target = _split(cur.name())
    elif kind is UnitKind.SYNONYM and cur.skip_to("FOR"):
        head.target = _split(cur.name())
    return head


def _data(cur: _Cursor, verb: str) -> Head:
    if verb in ("INSERT", "MERGE"):
        cur.skip_to("INTO")  # INSERT ALL/FIRST: the first INTO names the first target
    elif verb == "DELETE":
        cur.accept("FROM")
    schema, name = _split(cur.name())
    return Head(verb, UnitKind.DATA, SQL, schema, name, target=(schema, name))


def _grant(cur: _Cursor, verb: str) -> Head:
    if not cur.skip_to("ON"):  # a system privilege: no object
        return Head(verb, UnitKind.GRANT, SQL, name="system_privileges")
    schema, name = _split(cur.name())
    return Head(verb, UnitKind.GRANT, SQL, schema, name, target=(schema, name))


def _comment(cur: _Cursor, verb: str) -> Head:
    if not cur.accept("ON"):
        return Head(verb, UnitKind.OTHER, name="comment")
    on = cur.word()
    cur.i += 1
    if on == "MATERIALIZED":
        cur.accept("VIEW")
    parts = cur.name()
    if on == "COLUMN":
        parts = parts[:-1]  # table.column → the table
    schema, name = _split(parts)
    return Head(verb, UnitKind.COMMENT, SQL, schema, name, target=(schema, name))


def _alter(cur: _Cursor, verb: str) -> Head:
    if not cur.accept("TABLE"):
        return Head(verb, UnitKind.OTHER, name=("alter_" + cur.word().lower()).rstrip("_"))
    schema, name = _split(cur.name())
    return Head(verb, UnitKind.ALTER, SQL, schema, name, target=(schema, name))


def _anonymous(cur: _Cursor, verb: str) -> Head:
    return Head(verb, UnitKind.ANONYMOUS_BLOCK, BLOCK, name="block")


_READERS = {
    "INSERT": _data,
    "UPDATE": _data,
    "DELETE": _data,
    "MERGE": _data,
    "GRANT": _grant,
    "REVOKE": _grant,
    "COMMENT": _comment,
    "ALTER": _alter,
    "DECLARE": _anonymous,
    "BEGIN": _anonymous,
}


def session_schema(text: str, start: int, end: int) -> str | None:
    """`ALTER SESSION SET CURRENT_SCHEMA = x` changes the owner of what follows in the script."""
    cur = _Cursor(text, islice(code_tokens(text, start, end), 8))
    if cur.accept("ALTER") and cur.accept("SESSION") and cur.accept("SET"):
        if cur.accept("CURRENT_SCHEMA") and cur.symbol() == "=":
            cur.i += 1
            parts = cur.name()
            return parts[0] if parts else None
    return None
