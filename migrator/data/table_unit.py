"""A table's data unit (`data:schema.table`) converted: its literal INSERT rows become COPY blocks,
every other statement (INSERT … SELECT, a value calling a function) is converted as SQL, in order.

The output is a psql script (`COPY t (cols) FROM STDIN;`, the rows, `\\.`) that `psql -f
deploy.sql` runs from the unit file and the sandbox streams through psycopg's COPY. A row whose
literal is no value (a date that does not exist, a bad hex string) is rejected here, so it can
never stop the load: it is left out of the COPY rows and listed at the end of the unit file with
its `file:line`, its reason and its original text (commented out), and counted in a note.
"""

from __future__ import annotations

from migrator.convert.context import ConversionContext
from migrator.convert.ddl.data import convert_data
from migrator.data import copy_text
from migrator.data.masks import BadValue
from migrator.data.rows import NotLiteral, parse_insert
from migrator.data.scanner import statements
from migrator.source.units import SourceSpan, Unit


def pg_name(name: str) -> str:
    """An Oracle name as written → the PostgreSQL name the converted DDL created (unquoted names fold)."""
    return name if name.startswith('"') else name.lower()


def target_text(table: tuple[str | None, str]) -> str:
    schema, name = table
    return f"{pg_name(schema)}.{pg_name(name)}" if schema else pg_name(name)


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
        ctx.note(f"{loaded} literal rows written as COPY rows" + (f", {converted} statements converted" if converted else ""))
    if rejected:
        ctx.note(f"{len(rejected)} rows rejected (listed at the end of the unit file): never loaded")
        out.append(_rejects_comment(rejected))
    return "\n".join(out)


def _rejects_comment(rejected: list[tuple[SourceSpan, str, str]]) -> str:
    lines = [f"-- REJECTED ROWS ({len(rejected)}): not loaded; the original text follows each reason"]
    for where, reason, text in rejected:
        lines.append(f"-- {where}: {' '.join(reason.split())}")
        lines += [f"--   {t}" for t in text.splitlines()]
    return "\n".join(lines)
