"""A table's data unit (`data:schema.table`) converted: its literal INSERT rows become COPY blocks,
every other statement (INSERT … SELECT, a value calling a function) is converted as SQL, in order.

The output is a psql script (`COPY t (cols) FROM STDIN;`, the rows, `\\.`) that `psql -f
deploy.sql` runs from the unit file and the sandbox streams through psycopg's COPY. A row whose
literal is no value (a date that does not exist, a bad hex string) is rejected here, so it can
never stop the load: it is left out of the COPY rows and listed at the end of the unit file with
its `file:line`, its reason and its original text (commented out), and counted in a note.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from migrator.convert.context import ConversionContext
from migrator.convert.ddl.data import convert_data
from migrator.data import copy_text
from migrator.data.masks import BadValue
from migrator.data.rows import NotLiteral, parse_insert, pg_name, target_text
from migrator.data.scanner import statements
from migrator.source.units import SourceSpan, Unit

if TYPE_CHECKING:  # a conversion imports no database driver; the deploy that splits rejects does
    import psycopg

    from migrator.data.spool import Reject


def convert_table_data(unit: Unit, ctx: ConversionContext) -> str:
    if not ctx.enabled("data.insert"):
        return convert_data(unit.text, ctx)  # reports the disabled rule with the unit's text
    out: list[str] = []
    rows: list[str] = []
    block: tuple | None = None  # (table, columns) of the COPY block being filled
    rejected: list[tuple[SourceSpan, str, str]] = []
    loaded = converted = 0

    def flush() -> None:
        if block is not None and rows:
            out.append(copy_text.copy_command(target_text(block[0]), block[1]) + "".join(rows) + copy_text.END_OF_DATA)
        rows.clear()

    sql = [s for s in statements(unit.text) if not s.directive]
    for k, stmt in enumerate(sql):
        where = unit.parts[k] if k < len(unit.parts) else unit.span
        try:
            row = parse_insert(stmt.text)
        except NotLiteral:
            flush()
            block = None
            out.append(convert_data(stmt.text, ctx))
            converted += 1
            continue
        except BadValue as exc:
            rejected.append((where, str(exc), stmt.text))
            continue
        key = (row.table, tuple(pg_name(c) for c in row.columns) if row.columns is not None else None)
        if key != block:
            flush()
            block = key
        rows.append(copy_text.line(row.values))
        loaded += 1
    flush()
    ctx.applied("data.insert")
    if loaded:
        ctx.note(
            f"{loaded} literal rows written as COPY rows" + (f", {converted} statements converted" if converted else "")
        )
    if rejected:
        ctx.note(f"{len(rejected)} rows rejected (listed at the end of the unit file): never loaded")
        out.append(_rejects_comment(rejected))
    return "\n".join(out)


def row_sources(unit: Unit) -> list[tuple[str, str]]:
    """(file:line, original text) of each COPY row of the unit's conversion, in order."""
    found = []
    sql = [s for s in statements(unit.text) if not s.directive]
    for k, stmt in enumerate(sql):
        try:
            parse_insert(stmt.text)
        except (NotLiteral, BadValue):
            continue
        where = unit.parts[k] if k < len(unit.parts) else unit.span
        found.append((f"{where.file}:{where.start_line}", stmt.text))
    return found


def split_refused(conn: psycopg.Connection, unit: Unit, script: str) -> tuple[str, list[Reject]] | None:
    """Deploy a table data unit's script that PostgreSQL refused as a whole, row by row where it
    must: the rows it refuses (unique, foreign key, CHECK, length …) become rejects and the script
    is returned without them, so that psql never stops on them. None: a statement that is no
    COPY row failed (the unit stays refused)."""
    import psycopg

    from migrator.data.loader import copy_batch, script_parts, without_rows

    sources = iter(row_sources(unit))
    texts: dict[str, str] = {}

    def where() -> str:
        w, text = next(sources, ("", ""))
        texts[w] = text
        return w

    rejects: list[Reject] = []
    refused: set[int] = set()
    lines = script.splitlines(keepends=True)
    try:
        with conn.transaction():
            row_no = 0
            for part in script_parts(lines, where):
                if isinstance(part, str):
                    conn.execute(part.encode("utf-8"))
                    continue
                refused.update(row_no + k for k, ok in copy_batch(conn, part, rejects) if not ok)
                row_no += len(part.lines)
    except psycopg.Error:
        return None
    for r in rejects:
        r.text = texts.get(r.where, r.text)
    return "".join(without_rows(lines, refused)), rejects


def _rejects_comment(rejected: list[tuple[SourceSpan, str, str]]) -> str:
    lines = [f"-- REJECTED ROWS ({len(rejected)}): not loaded; the original text follows each reason"]
    for where, reason, text in rejected:
        lines.append(f"-- {where}: {' '.join(reason.split())}")
        lines += [f"--   {t}" for t in text.splitlines()]
    return "\n".join(lines)
