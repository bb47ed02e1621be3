"""ALTER TABLE clauses that change a constraint's or the table's triggers' *state*:

    MODIFY CONSTRAINT name | PRIMARY KEY   state...
    ENABLE | DISABLE [VALIDATE | NOVALIDATE] CONSTRAINT name | PRIMARY KEY [CASCADE] [KEEP | DROP INDEX]
    ENABLE | DISABLE ALL TRIGGERS
    ENABLE | DISABLE TABLE LOCK, ENABLE | DISABLE ROW MOVEMENT

A constraint's state becomes a call of `oracompat.constraint_state` (see
`migrator/convert/oracompat/constraint_state.sql` for the meaning of each state on PostgreSQL):
the state lives in the database, like Oracle's, so a DISABLE in one unit and the ENABLE in a later
one meet at run time whatever the order of the units that declared the constraint. A constraint
declared DISABLE in CREATE TABLE was never created; its definition, converted here from the
source the catalog kept, is passed to the call so that ENABLE creates it.
"""

from __future__ import annotations

from harness.quoting import pg_string
from migrator.convert.context import ConversionContext
from migrator.convert.ddl.constraints import parse_constraint, render
from migrator.convert.ddl.tokens import Name, ident
from migrator.source.lexer import LexError, Token, tokenize

_CLAUSE_START = ("MODIFY", "ENABLE", "DISABLE")


def is_state_clause(toks: list[Token], i: int) -> bool:
    """toks[i] starts a state clause (MODIFY of a column is not one)."""
    if toks[i].is_word("ENABLE", "DISABLE"):
        return True
    return toks[i].is_word("MODIFY") and i + 1 < len(toks) and toks[i + 1].is_word("CONSTRAINT", "PRIMARY")


def convert_states(table: Name, toks: list[Token], i: int, ctx: ConversionContext) -> list[str]:
    """The statements for the state clauses toks[i:] (one or more, in order)."""
    out: list[str] = []
    while i < len(toks):
        if not toks[i].is_word(*_CLAUSE_START):
            raise LexError(f"unexpected {toks[i].text!r} in ALTER TABLE after a state clause")
        if toks[i].is_word("MODIFY"):
            i = _modify(table, toks, i + 1, ctx, out)
        else:
            i = _enable_disable(table, toks, i, ctx, out)
    return out


def _target(toks: list[Token], i: int) -> tuple[str | None, int]:
    """`CONSTRAINT name` → (name, next) | `PRIMARY KEY` → (None, next)."""
    if toks[i].is_word("CONSTRAINT"):
        return ident(toks[i + 1]), i + 2
    if toks[i].is_word("PRIMARY") and i + 1 < len(toks) and toks[i + 1].is_word("KEY"):
        return None, i + 2
    if toks[i].is_word("UNIQUE"):
        raise LexError("the state of a UNIQUE (columns) constraint: name the constraint (PostgreSQL finds it by name)")
    raise LexError(f"unexpected {toks[i].text!r} where CONSTRAINT name or PRIMARY KEY was expected")


def _modify(table: Name, toks: list[Token], i: int, ctx: ConversionContext, out: list[str]) -> int:
    """MODIFY CONSTRAINT name | PRIMARY KEY followed by state words."""
    name, i = _target(toks, i)
    enable: bool | None = None
    validate: bool | None = None
    cascade = False
    while i < len(toks) and not toks[i].is_word("MODIFY"):
        t = toks[i]
        if t.is_word("ENABLE", "DISABLE"):
            enable = t.is_word("ENABLE")
        elif t.is_word("VALIDATE", "NOVALIDATE"):
            validate = t.is_word("VALIDATE")
        elif t.is_word("CASCADE"):
            cascade = True
        elif t.is_word("RELY", "NORELY"):
            ctx.note(
                f"constraint {name or 'PRIMARY KEY'}: {t.text.upper()} only informs Oracle's query rewrite; nothing to do"
            )
        elif t.is_word("KEEP", "DROP") and i + 1 < len(toks) and toks[i + 1].is_word("INDEX"):
            i += 1  # the index of a disabled key goes with the constraint in PostgreSQL
        else:
            raise LexError(f"constraint state {t.text.upper()} is not converted")
        i += 1
    if enable is None and validate is None:
        return i  # only RELY / NORELY
    if enable is None:
        # VALIDATE alone checks an enabled constraint's rows; NOVALIDATE alone changes nothing here
        enable = True
    _call(table, name, enable, validate if validate is not None else enable, cascade, ctx, out)
    return i


def _enable_disable(table: Name, toks: list[Token], i: int, ctx: ConversionContext, out: list[str]) -> int:
    enable = toks[i].is_word("ENABLE")
    verb = "ENABLE" if enable else "DISABLE"
    i += 1
    if toks[i].is_word("ALL") and i + 1 < len(toks) and toks[i + 1].is_word("TRIGGERS"):
        # Oracle's ALL TRIGGERS are the table's own triggers: PostgreSQL's USER triggers (ALL
        # would include the internal ones that enforce foreign keys)
        ctx.applied("ddl.alter_table")
        out.append(f"ALTER TABLE {table.sql} {verb} TRIGGER USER;")
        return i + 2
    if toks[i].is_word("TABLE") and i + 1 < len(toks) and toks[i + 1].is_word("LOCK"):
        ctx.note(f"{verb} TABLE LOCK: PostgreSQL has no per-table switch for DDL locks; nothing to do")
        return i + 2
    if toks[i].is_word("ROW") and i + 1 < len(toks) and toks[i + 1].is_word("MOVEMENT"):
        ctx.note(f"{verb} ROW MOVEMENT: PostgreSQL moves updated rows between partitions always; nothing to do")
        return i + 2
    validate = enable  # Oracle's defaults: ENABLE VALIDATE, DISABLE NOVALIDATE
    if toks[i].is_word("VALIDATE", "NOVALIDATE"):
        validate = toks[i].is_word("VALIDATE")
        i += 1
    name, i = _target(toks, i)
    cascade = False
    while i < len(toks) and not toks[i].is_word(*_CLAUSE_START):
        if toks[i].is_word("CASCADE"):
            cascade = True
        elif toks[i].is_word("KEEP", "DROP") and i + 1 < len(toks) and toks[i + 1].is_word("INDEX"):
            i += 1
        elif toks[i].is_word("USING", "EXCEPTIONS"):
            raise LexError(f"{toks[i].text.upper()} in ALTER TABLE {verb} CONSTRAINT is not converted")
        else:
            raise LexError(f"unexpected {toks[i].text!r} in ALTER TABLE {verb} CONSTRAINT")
        i += 1
    _call(table, name, enable, validate, cascade, ctx, out)
    return i


def _call(
    table: Name, name: str | None, enable: bool, validate: bool, cascade: bool, ctx: ConversionContext, out: list[str]
) -> None:
    if not enable and validate:
        raise LexError(
            f"DISABLE VALIDATE of constraint {name or 'PRIMARY KEY'}: Oracle keeps the rows valid by refusing"
            " every change to the table; PostgreSQL cannot make a table read-only"
        )
    args = [
        f"{pg_string(table.sql)}::regclass",
        pg_string(name) if name is not None else "NULL",
        "enable => true" if enable else "enable => false",
        "validate => true" if validate else "validate => false",
    ]
    if cascade:
        args.append("cascade => true")
    definition = _declared_disabled(table, name, ctx) if enable else None
    if definition is not None:
        args.append(f"definition => {pg_string(definition)}")
    if name is None:
        args.append("kind => 'p'")
    state = ("ENABLE " if enable else "DISABLE ") + ("VALIDATE" if validate else "NOVALIDATE")
    what = f"constraint {name}" if name else "the primary key"
    if enable and not validate:
        ctx.note(
            f"{state} of {what}: a foreign key or CHECK is added NOT VALID (existing rows not checked);"
            " a key is always checked by its unique index"
        )
    elif not enable:
        ctx.note(f"{state} of {what}: dropped, its definition kept in oracompat.disabled_constraint for ENABLE")
    ctx.applied("ddl.constraint_state")
    out.append(f"SELECT oracompat.constraint_state({', '.join(args)});")


def _declared_disabled(table: Name, name: str | None, ctx: ConversionContext) -> str | None:
    """The PostgreSQL definition of a constraint CREATE TABLE declared DISABLE (not created)."""
    entry = ctx.catalog.lookup(*table)
    if entry is None or name is None:
        return None
    for con_name, column, text in entry.table.disabled_constraints:
        if con_name != name:
            continue
        con, _ = parse_constraint(text, tokenize(text), 0, ctx, column=column, types=entry.table.column_types)
        if con.kind in ("not_null", "null"):
            return None  # a NOT NULL constraint has no name in PostgreSQL 15
        con.name = None
        return render(con, inline=False)
    return None
