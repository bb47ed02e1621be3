"""CREATE TABLE: columns, constraints, physical attributes, temporary tables, CTAS."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from harness.quoting import quote_ident
from migrator.convert.context import ConversionContext
from migrator.convert.ddl.columns import oracle_type_of, parse_column, render_column
from migrator.convert.ddl.common import STORAGE_WORDS, convert_statement, require, unconverted, words
from migrator.convert.ddl.constraints import CONSTRAINT_STARTS, keep, parse_constraint, render
from migrator.convert.ddl.key_types import aligned_type, foreign_key_types
from migrator.convert.ddl.partitions import parse_partitioning
from migrator.convert.ddl.tokens import Name, ident, read_name, source
from migrator.convert.schema_model import Table
from migrator.source.lexer import LexError, Token, matching_paren, split_top_level, tokenize

# Clauses after the column list that only describe storage: they have no behaviour, so they
# are dropped (and listed in a note). Any other word there is not understood → unconverted.
PHYSICAL_HEADS = STORAGE_WORDS | frozenset(
    """PCTUSED ROW COLUMN CACHE NOCACHE MONITORING NOMONITORING SEGMENT ORGANIZATION LOB ENABLE
    DISABLE ROWDEPENDENCIES NOROWDEPENDENCIES RESULT_CACHE INMEMORY NO OVERFLOW PCTTHRESHOLD
    INCLUDING MAPPING NESTED CLUSTER DEFAULT FILESYSTEM_LIKE_LOGGING MEMOPTIMIZE USING
    SUPPLEMENTAL""".split()
)


@dataclass
class TableHead:
    temporary: bool
    name: Name
    open_paren: int | None  # index of '(' of the element list, None for CTAS without columns
    close_paren: int | None
    rest: int  # index of the first token after the element list
    toks: list[Token] = field(default_factory=list)


def parse_head(text: str) -> TableHead:
    toks = tokenize(text)
    i = 1  # after CREATE
    temporary = False
    if toks[i].is_word("GLOBAL", "PRIVATE"):
        temporary, i = True, i + 2  # GLOBAL TEMPORARY
    if toks[i].is_word("SHARDED", "DUPLICATED", "IMMUTABLE", "BLOCKCHAIN"):
        raise LexError(f"{toks[i].text.upper()} tables are not supported")
    if not toks[i].is_word("TABLE"):
        raise LexError("not a CREATE TABLE statement")
    name, i = read_name(toks, i + 1)
    if i < len(toks) and toks[i].text == "(" and not _is_query_paren(toks, i):
        close = matching_paren(toks, i)
        return TableHead(temporary, name, i, close, close + 1, toks)
    return TableHead(temporary, name, None, None, i, toks)


def _is_query_paren(toks: list[Token], i: int) -> bool:
    return i + 1 < len(toks) and toks[i + 1].is_word("SELECT", "WITH")


def is_constraint_element(el: list[Token]) -> bool:
    return el[0].is_word(*CONSTRAINT_STARTS) and not (len(el) > 1 and el[1].kind == "word" and el[0].is_word("NULL"))


def table_info(text: str) -> Table:
    """The table's column types (as written) and primary key, for the schema model."""
    head = parse_head(text)
    columns: dict[str, str] = {}
    pk: list[str] = []
    if head.open_paren is None:
        return Table(column_types=columns, primary_key=tuple(pk))
    disabled: list[tuple[str, str | None, str]] = []
    identity: list[str] = []
    keys: list[tuple[str, tuple[str, ...]]] = []
    on_commit = _on_commit(head) if head.temporary else ""
    for el in split_top_level(head.toks[head.open_paren + 1 : head.close_paren]):
        keys += key_constraints(el, None)
        if is_constraint_element(el):
            pk = _out_of_line_pk(el) or pk
            disabled += _disabled(text, el, None)
            continue
        oracle_type, after = oracle_type_of(text, el)
        columns[ident(el[0])] = oracle_type
        if any(t.is_word("PRIMARY") for t in el[after:]):
            pk = [ident(el[0])]
        disabled += _disabled(text, el[after:], ident(el[0]))
        if any(t.is_word("IDENTITY") for t in el[after:]):
            identity.append(ident(el[0]))
    return Table(
        column_types=columns,
        primary_key=tuple(pk),
        disabled_constraints=tuple(disabled),
        identity_columns=tuple(identity),
        key_constraints=tuple(keys),
        on_commit=on_commit,
    )


def key_constraints(el: list[Token], column: str | None) -> list[tuple[str, tuple[str, ...]]]:
    """The named PRIMARY KEY / UNIQUE constraints in one element (a column's inline ones or an
    out-of-line one) with their columns."""
    found = []
    owner = column if column is not None else (ident(el[0]) if not is_constraint_element(el) else None)
    for k, t in enumerate(el[:-2]):
        if not t.is_word("CONSTRAINT"):
            continue
        name, j = ident(el[k + 1]), k + 2
        if not el[j].is_word("PRIMARY", "UNIQUE"):
            continue
        j += 2 if el[j].is_word("PRIMARY") else 1
        if j < len(el) and el[j].text == "(":
            cols = tuple(ident(x) for x in el[j + 1 : matching_paren(el, j)] if x.kind in ("word", "qident"))
        elif owner is not None:
            cols = (owner,)
        else:
            continue
        found.append((name, cols))
    return found


def _disabled(text: str, toks: list[Token], column: str | None) -> list[tuple[str, str | None, str]]:
    """The named constraints among toks (`CONSTRAINT name ...`, each up to the next) declared DISABLE."""
    starts = [k for k, t in enumerate(toks) if t.is_word("CONSTRAINT") and k + 1 < len(toks)]
    found = []
    for k, end in zip(starts, [*starts[1:], len(toks)]):
        if any(t.is_word("DISABLE") for t in toks[k:end]):
            found.append((ident(toks[k + 1]), column, source(text, toks[k:end])))
    return found


def _on_commit(head: TableHead) -> str:
    """ON COMMIT DELETE / PRESERVE ROWS of a temporary table (DELETE when absent, Oracle's default)."""
    toks = head.toks
    for i in range(head.rest, len(toks) - 2):
        if toks[i].is_word("ON") and toks[i + 1].is_word("COMMIT"):
            return toks[i + 2].text.upper()
    return "DELETE"


def _out_of_line_pk(el: list[Token]) -> list[str]:
    for k, t in enumerate(el):
        if t.is_word("PRIMARY") and k + 2 < len(el) and el[k + 2].text == "(":
            end = matching_paren(el, k + 2)
            return [ident(x) for x in el[k + 3 : end] if x.kind in ("word", "qident")]
    return []


def convert_table(text: str, ctx: ConversionContext) -> str:
    try:
        head = parse_head(text)
        return _convert(text, head, ctx)
    except LexError as exc:
        return unconverted(ctx, "CREATE TABLE", str(exc), text)


def _convert(text: str, head: TableHead, ctx: ConversionContext) -> str:
    types = table_info(text).column_types if head.open_paren is not None else None
    tail: Trailing | None = None
    if head.temporary and head.open_paren is not None and ctx.enabled("ddl.session_temporary_table"):
        tail = _trailing(text, head, ctx)
        if tail.query is None and not tail.partition:
            return _session_table(text, head, tail, ctx, types)
    elements = []
    if head.open_paren is not None:
        parts = split_top_level(head.toks[head.open_paren + 1 : head.close_paren])
        fk_types = foreign_key_types(head.name, parts, ctx)
        for el in parts:
            line = _element(text, el, ctx, types, fk_types)
            if line:
                elements.append(line)
    tail = tail or _trailing(text, head, ctx)
    create = "CREATE TABLE"
    if head.temporary:
        create = _temporary(tail, ctx)
    cols = ""
    if elements:
        cols = " (\n    " + ",\n    ".join(elements) + "\n)"
    if tail.query is not None:
        return f"{create} {head.name.sql}{cols} AS\n{tail.query};"
    return "\n".join([f"{create} {head.name.sql}{cols}{tail.partition};", *tail.partitions])


def _element(text: str, el: list[Token], ctx: ConversionContext, types: dict | None, fk_types: dict[str, str]) -> str:
    if is_constraint_element(el):
        con, i = parse_constraint(text, el, 0, ctx, types=types)
        if i != len(el):
            raise LexError(f"unexpected text after constraint: {source(text, el[i:])}")
        return render(con, inline=False) if keep(con, ctx) else ""
    if len(el) == 1:  # CTAS column list: a bare name
        return quote_ident(ident(el[0]))
    col = parse_column(text, el, ctx, types)
    if col.name in fk_types:
        col.pg_type = aligned_type(col.pg_type, col.name, fk_types[col.name], ctx) or col.pg_type
    return render_column(col)


@dataclass
class Trailing:
    on_commit: str = ""  # "DELETE" | "PRESERVE" | ""
    query: str | None = None
    partition: str = ""  # PARTITION BY ... of the parent table
    partitions: list[str] = field(default_factory=list)  # its partitions' CREATE TABLE statements


def _trailing(text: str, head: TableHead, ctx: ConversionContext) -> Trailing:
    toks, i = head.toks, head.rest
    out = Trailing()
    dropped: list[Token] = []
    while i < len(toks):
        t = toks[i]
        if t.is_word("ON") and i + 3 < len(toks) and toks[i + 1].is_word("COMMIT"):
            out.on_commit, i = toks[i + 2].text.upper(), i + 4
        elif t.is_word("AS") and (toks[i + 1].is_word("SELECT", "WITH") or _is_query_paren(toks, i + 1)):
            out.query = convert_statement(source(text, toks[i + 1 :]), ctx)
            break
        elif t.is_word("PARTITION"):
            parts, i = parse_partitioning(text, toks, i, head.name, ctx)
            out.partition, out.partitions = parts.clause, parts.children
        elif t.is_word("OF") and head.open_paren is None:
            raise LexError(
                "object table (CREATE TABLE t OF type): its rows are objects with object identifiers "
                "(REF, VALUE, OBJECT_VALUE, INSERT of an instance); not converted — PostgreSQL's typed "
                "table (CREATE TABLE t OF composite) would keep the columns, not the identifiers"
            )
        elif t.is_word("ORGANIZATION") and i + 1 < len(toks) and toks[i + 1].is_word("EXTERNAL"):
            raise LexError("external table (ORGANIZATION EXTERNAL): use file_fdw or load the data")
        elif t.is_word(*PHYSICAL_HEADS):
            start, i = i, _clause_end(toks, i + 1)
            dropped += toks[start:i]
        else:
            raise LexError(f"unknown table clause {source(text, toks[i : i + 3])!r}")
    if dropped:
        _note_physical(dropped, ctx)
    return out


def _clause_end(toks: list[Token], i: int) -> int:
    """Arguments of a physical clause run to the next clause head (parenthesised groups whole)."""
    while i < len(toks):
        t = toks[i]
        if t.text == "(":
            i = matching_paren(toks, i) + 1
            continue
        if t.is_word(*PHYSICAL_HEADS) and not t.is_word("ROW", "COLUMN", "DEFAULT", "NO", "CACHE"):
            break
        if (
            t.is_word("ON", "PARTITION")
            or t.is_word("AS")
            and i + 1 < len(toks)
            and toks[i + 1].is_word("SELECT", "WITH")
        ):
            break
        i += 1
    return i


def _note_physical(dropped: list[Token], ctx: ConversionContext) -> None:
    require(ctx, "ddl.physical_attributes", "physical attributes")
    ctx.applied("ddl.physical_attributes")
    ctx.note(f"physical attributes dropped (storage only, no behaviour): {words(dropped)}")


def _temporary(tail: Trailing, ctx: ConversionContext) -> str:
    """Oracle's global temporary table is a permanent definition with per-session rows.

    A PostgreSQL TEMP table would vanish with the deploying session (later sessions and
    functions would not find it), so the definition becomes an UNLOGGED table: it survives,
    but its rows are shared between sessions and ON COMMIT DELETE ROWS is not emulated.
    """
    require(ctx, "ddl.temporary_table", "GLOBAL TEMPORARY TABLE")
    ctx.applied("ddl.temporary_table")
    mode = tail.on_commit or "DELETE"  # Oracle's default is ON COMMIT DELETE ROWS
    ctx.note(
        f"GLOBAL TEMPORARY TABLE (ON COMMIT {mode} ROWS) → UNLOGGED TABLE: rows are shared "
        "between sessions and not cleared at commit; callers should delete their own rows "
        "(or create a session TEMP table of the same shape)"
    )
    return "CREATE UNLOGGED TABLE"


# -- global temporary tables as session-private rows (rule ddl.session_temporary_table) ---------------
SESSION_COLUMN, XACT_COLUMN = "$session", "$xact"  # no Oracle column can be named so unquoted
ROWS_SUFFIX = "$gtt"
_INLINE_KEY = re.compile(r'^(?:CONSTRAINT ("(?:[^"]|"")*"|\S+) )?(PRIMARY KEY|UNIQUE)$')


def rows_end_with_transaction(on_commit: str) -> bool:
    """ON COMMIT DELETE ROWS (Oracle's default) and a private temporary table's DROP DEFINITION
    end the rows with the transaction; PRESERVE ROWS / DEFINITION with the session."""
    return on_commit in ("", "DELETE", "DROP")


def session_rows_name(name: Name) -> Name:
    """The table that holds a global temporary table's rows (the view keeps the table's name)."""
    return Name((*name[:-1], name[-1] + ROWS_SUFFIX))


def _session_table(text: str, head: TableHead, tail: Trailing, ctx: ConversionContext, types: dict | None) -> str:
    """Oracle's global temporary table (SQL Language Reference, CREATE TABLE → GLOBAL TEMPORARY,
    ON COMMIT): one definition every session sees, whose rows only the session that wrote them
    sees; ON COMMIT DELETE ROWS (the default) empties it at the end of each transaction,
    PRESERVE ROWS at the end of the session.

    PostgreSQL's TEMP table lives in one session: created at deployment it is gone for every
    other session. So the rows live in an UNLOGGED table `<name>$gtt` with the writing session
    (`oracompat.session_key()`: backend pid and start time) and, for DELETE ROWS, the writing
    transaction (`pg_current_xact_id()`) in hidden columns, and `<name>` is an updatable view of
    the rows of the current session (and transaction: `pg_current_xact_id_if_assigned()`, NULL in
    a transaction that has written nothing, so it sees no rows). Rows of ended transactions and
    sessions stay invisible; `oracompat.purge_session_rows(table)` deletes them. Primary keys and
    unique constraints hold per session (and transaction), as they do in Oracle."""
    require(ctx, "ddl.temporary_table", "GLOBAL TEMPORARY TABLE")
    ctx.applied("ddl.temporary_table")
    ctx.applied("ddl.session_temporary_table")
    per_xact = rows_end_with_transaction(tail.on_commit)
    hidden = [SESSION_COLUMN, XACT_COLUMN] if per_xact else [SESSION_COLUMN]
    columns, constraints, names = [], [], []
    keyed_by_session = False  # a primary key or unique constraint starts with the hidden columns
    for el in split_top_level(head.toks[head.open_paren + 1 : head.close_paren]):  # type: ignore[operator]
        if is_constraint_element(el):
            con, i = parse_constraint(text, el, 0, ctx, types=types)
            if i != len(el):
                raise LexError(f"unexpected text after constraint: {source(text, el[i:])}")
            if not keep(con, ctx):
                continue
            if con.kind in ("primary", "unique"):
                con.columns = hidden + con.columns
                keyed_by_session = True
            constraints.append(render(con, inline=False))
            continue
        col = parse_column(text, el, ctx, types)
        names.append(quote_ident(col.name))
        kept = []
        for part in col.parts:
            m = _INLINE_KEY.match(part)
            if m is None:
                kept.append(part)
                continue
            keyed_by_session = True
            keyed = ", ".join(quote_ident(c) for c in [*hidden, col.name])
            constraints.append(f"{'CONSTRAINT ' + m.group(1) + ' ' if m.group(1) else ''}{m.group(2)} ({keyed})")
            if m.group(2) == "PRIMARY KEY" and not col.not_null:
                kept.append("NOT NULL")
        col.parts = kept
        columns.append(render_column(col))
    columns.append(f"{quote_ident(SESSION_COLUMN)} text NOT NULL DEFAULT oracompat.session_key()")
    if per_xact:
        columns.append(f"{quote_ident(XACT_COLUMN)} xid8 NOT NULL DEFAULT pg_current_xact_id()")
    rows = session_rows_name(head.name)
    body = ",\n    ".join(columns + constraints)
    mine = f"{quote_ident(SESSION_COLUMN)} = oracompat.session_key()"
    if per_xact:
        mine += f" AND {quote_ident(XACT_COLUMN)} = pg_current_xact_id_if_assigned()"
    mode = "DELETE" if per_xact else "PRESERVE"
    ctx.note(
        f"GLOBAL TEMPORARY TABLE (ON COMMIT {mode} ROWS) → rows in UNLOGGED TABLE {rows.sql} "
        f"and view {head.name.sql} of the current session's{' transaction' if per_xact else ''} rows"
    )
    key_index = ""
    if not keyed_by_session:
        hidden_list = ", ".join(quote_ident(c) for c in hidden)
        key_index = f"CREATE INDEX {quote_ident(rows[-1] + '_session')} ON {rows.sql} ({hidden_list});\n"
    return (
        f"CREATE UNLOGGED TABLE {rows.sql} (\n    {body}\n);\n{key_index}"
        f"CREATE VIEW {head.name.sql} AS\n    SELECT {', '.join(names)} FROM {rows.sql} WHERE {mine};"
    )
