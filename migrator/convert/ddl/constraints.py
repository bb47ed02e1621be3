"""Constraints: inline (column) and out-of-line (table) forms, for CREATE TABLE and ALTER TABLE.

Oracle constraint *states* have no behaviour PostgreSQL could reproduce one-to-one: ENABLE,
VALIDATE, RELY and USING INDEX are dropped (noted); DEFERRABLE / INITIALLY DEFERRED are kept;
a DISABLEd constraint is not enforced by Oracle, so it is not created (noted, never silent).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.quoting import quote_ident
from migrator.convert.context import ConversionContext
from migrator.convert.ddl.common import convert_expression, words
from migrator.convert.ddl.tokens import Name, ident, read_name, source
from migrator.source.lexer import LexError, Token, matching_paren

# Words that start a constraint or a state; they end a column's type and DEFAULT expression.
CONSTRAINT_STARTS = {"CONSTRAINT", "NOT", "NULL", "PRIMARY", "UNIQUE", "CHECK", "REFERENCES", "FOREIGN"}
STATE_WORDS = {
    "ENABLE",
    "DISABLE",
    "VALIDATE",
    "NOVALIDATE",
    "RELY",
    "NORELY",
    "DEFERRABLE",
    "INITIALLY",
    "USING",
    "EXCEPTIONS",
}


@dataclass
class Constraint:
    kind: str  # primary | unique | check | foreign | not_null | null
    name: str | None = None  # plain names (quoted when rendered)
    columns: list[str] = field(default_factory=list)
    check: str = ""
    ref_table: Name = Name()
    ref_columns: list[str] = field(default_factory=list)
    on_delete: str = ""
    deferral: list[str] = field(default_factory=list)
    disabled: bool = False


def column_list(tokens: list[Token], i: int) -> tuple[list[str], int]:
    """`( a, b DESC, ... )` starting at tokens[i] == '(' → (names, index after ')')."""
    end = matching_paren(tokens, i)
    names = [ident(t) for t in tokens[i + 1 : end] if t.kind in ("word", "qident")]
    return names, end + 1


def parse_constraint(
    text: str, toks: list[Token], i: int, ctx: ConversionContext, column: str | None = None, types: dict | None = None
) -> tuple[Constraint, int]:
    """Read one constraint starting at toks[i] (optionally `CONSTRAINT name` first)."""
    name = None
    if toks[i].is_word("CONSTRAINT"):
        name = ident(toks[i + 1])
        i += 2
    t = toks[i]
    if t.is_word("NOT") and i + 1 < len(toks) and toks[i + 1].is_word("NULL"):
        con, i = Constraint("not_null", name, [column] if column else []), i + 2
    elif t.is_word("NULL"):
        con, i = Constraint("null", name), i + 1
    elif t.is_word("PRIMARY", "UNIQUE"):
        con, i = _parse_key(toks, i, name, column)
    elif t.is_word("CHECK"):
        end = matching_paren(toks, i + 1)
        cond = source(text, toks[i + 2 : end])
        con, i = Constraint("check", name, check=convert_expression(cond, ctx, types)), end + 1
    elif t.is_word("FOREIGN", "REFERENCES"):
        con, i = _parse_foreign(toks, i, name, column)
    else:
        raise LexError(f"unexpected {t.text!r} where a constraint was expected")
    i = _parse_states(toks, i, con, ctx)
    return con, i


def _parse_key(toks: list[Token], i: int, name: str | None, column: str | None) -> tuple[Constraint, int]:
    kind = "primary" if toks[i].is_word("PRIMARY") else "unique"
    i += 2 if kind == "primary" else 1  # PRIMARY KEY | UNIQUE
    cols = [column] if column else []
    if i < len(toks) and toks[i].text == "(":
        cols, i = column_list(toks, i)
    return Constraint(kind, name, cols), i


def _parse_foreign(toks: list[Token], i: int, name: str | None, column: str | None) -> tuple[Constraint, int]:
    cols = [column] if column else []
    if toks[i].is_word("FOREIGN"):
        cols, i = column_list(toks, i + 2)  # FOREIGN KEY (cols)
    if not toks[i].is_word("REFERENCES"):
        raise LexError("FOREIGN KEY without REFERENCES")
    table, i = read_name(toks, i + 1)
    ref_cols: list[str] = []
    if i < len(toks) and toks[i].text == "(":
        ref_cols, i = column_list(toks, i)
    con = Constraint("foreign", name, cols, ref_table=table, ref_columns=ref_cols)
    if i + 2 < len(toks) and toks[i].is_word("ON") and toks[i + 1].is_word("DELETE"):
        if toks[i + 2].is_word("CASCADE"):
            con.on_delete, i = "CASCADE", i + 3
        else:  # ON DELETE SET NULL
            con.on_delete, i = "SET NULL", i + 4
    return con, i


def _parse_states(toks: list[Token], i: int, con: Constraint, ctx: ConversionContext) -> int:
    dropped: list[Token] = []
    while i < len(toks):
        t = toks[i]
        if t.is_word("DEFERRABLE") or t.is_word("NOT") and i + 1 < len(toks) and toks[i + 1].is_word("DEFERRABLE"):
            n = 1 if t.is_word("DEFERRABLE") else 2
            con.deferral += [x.text.upper() for x in toks[i : i + n]]
            i += n
        elif t.is_word("INITIALLY"):
            con.deferral += ["INITIALLY", toks[i + 1].text.upper()]
            i += 2
        elif t.is_word("USING") and i + 1 < len(toks) and toks[i + 1].is_word("INDEX"):
            start, i = i, _skip_using_index(toks, i + 2)
            dropped += toks[start:i]
        elif t.is_word("EXCEPTIONS"):
            start, i = i, i + 3  # EXCEPTIONS INTO table
            dropped += toks[start:i]
        elif t.is_word("ENABLE", "DISABLE", "VALIDATE", "NOVALIDATE", "RELY", "NORELY"):
            con.disabled = con.disabled or t.is_word("DISABLE")
            dropped.append(t)
            i += 1
        else:
            break
    if dropped:
        ctx.note(f"constraint state dropped (no PostgreSQL equivalent): {words(dropped)}")
    if con.deferral and con.kind not in ("primary", "unique", "foreign"):
        ctx.note(f"{' '.join(con.deferral)} dropped: PostgreSQL checks {con.kind} constraints immediately")
    return i


def _skip_using_index(toks: list[Token], i: int) -> int:
    """USING INDEX (CREATE INDEX ...) | USING INDEX name | USING INDEX <physical attributes>."""
    if i < len(toks) and toks[i].text == "(":
        return matching_paren(toks, i) + 1
    while i < len(toks) and not (toks[i].is_word(*CONSTRAINT_STARTS) or toks[i].is_word(*STATE_WORDS)):
        i = matching_paren(toks, i) + 1 if toks[i].text == "(" else i + 1
    return i


def render(con: Constraint, inline: bool) -> str:
    """PostgreSQL text of a constraint; inline ones omit the column list."""
    head = f"CONSTRAINT {quote_ident(con.name)} " if con.name else ""
    cols = "" if inline else f" ({_names(con.columns)})"
    if con.kind == "not_null":
        body = "NOT NULL"
    elif con.kind == "null":
        body = "NULL"
    elif con.kind == "primary":
        body = "PRIMARY KEY" + cols
    elif con.kind == "unique":
        body = "UNIQUE" + cols
    elif con.kind == "check":
        body = f"CHECK ({con.check})"
    else:
        body = ("" if inline else f"FOREIGN KEY{cols} ") + f"REFERENCES {con.ref_table.sql}"
        if con.ref_columns:
            body += f" ({_names(con.ref_columns)})"
        if con.on_delete:
            body += f" ON DELETE {con.on_delete}"
    tail = " " + " ".join(con.deferral) if con.deferral and con.kind in ("primary", "unique", "foreign") else ""
    return head + body + tail


def _names(columns: list[str]) -> str:
    return ", ".join(quote_ident(c) for c in columns)


def keep(con: Constraint, ctx: ConversionContext) -> bool:
    """A DISABLEd constraint is not enforced in Oracle either; it is reported, not created."""
    if con.disabled:
        ctx.note(f"disabled constraint {con.name or con.kind} not created (Oracle does not enforce it)")
        return False
    return True
