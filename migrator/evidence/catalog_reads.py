"""What synthesis reads back from the deployed export, as the execution role: the tables' columns,
primary keys and a few rows (the export's own data), and each converted routine's parameters."""

from __future__ import annotations

import re

import psycopg
from psycopg import sql

from migrator.evidence.steps import PgArg
from migrator.evidence.targets import Target
from migrator.evidence.values import DataView

ROWS_PER_TABLE = 20


def read_tables(dsn: str, schema: str) -> tuple[DataView, dict[str, list[dict]]]:
    """A DataView over the schema's tables and up to ROWS_PER_TABLE rows of each, keyed by column."""
    rows: dict[str, list[dict]] = {}
    with psycopg.connect(dsn, autocommit=True) as conn:
        cols = conn.execute(
            "SELECT c.relname, a.attname FROM pg_catalog.pg_class c "
            "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped "
            "WHERE n.nspname = %s AND c.relkind IN ('r', 'p') ORDER BY c.relname, a.attnum",
            (schema,),
        ).fetchall()
        keys = conn.execute(
            "SELECT c.relname, a.attname FROM pg_catalog.pg_constraint k "
            "JOIN pg_catalog.pg_class c ON c.oid = k.conrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY(k.conkey) "
            "WHERE n.nspname = %s AND k.contype = 'p' ORDER BY c.relname, array_position(k.conkey, a.attnum)",
            (schema,),
        ).fetchall()
        uniques = conn.execute(  # UNIQUE constraints and unique indexes alike (not the primary key)
            "SELECT c.relname, ARRAY(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY u(n, o) "
            "      JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = u.n ORDER BY u.o) "
            "FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indrelid "
            "JOIN pg_catalog.pg_class x ON x.oid = i.indexrelid "
            "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND i.indisunique AND NOT i.indisprimary ORDER BY c.relname, x.relname",
            (schema,),
        ).fetchall()
        constraints = conn.execute(
            "SELECT k.contype, c.relname, "
            "ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY u(n, i) JOIN pg_catalog.pg_attribute a "
            "      ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i), "
            "r.relname, ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY u(n, i) "
            "      JOIN pg_catalog.pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i) "
            "FROM pg_catalog.pg_constraint k JOIN pg_catalog.pg_class c ON c.oid = k.conrelid "
            "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_catalog.pg_class r ON r.oid = k.confrelid "
            "WHERE n.nspname = %s AND k.contype = 'f' ORDER BY c.relname, k.conname",
            (schema,),
        ).fetchall()
        checks = conn.execute(  # one-column CHECK constraints: the texts they name (`status IN ('OPEN', ...)`)
            "SELECT c.relname, a.attname, pg_catalog.pg_get_constraintdef(k.oid) FROM pg_catalog.pg_constraint k "
            "JOIN pg_catalog.pg_class c ON c.oid = k.conrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.conkey[1] "
            "WHERE n.nspname = %s AND k.contype = 'c' AND cardinality(k.conkey) = 1 ORDER BY c.relname, k.conname",
            (schema,),
        ).fetchall()
        columns: dict[str, list[str]] = {}
        for table, col in cols:
            columns.setdefault(table, []).append(col)
        for table, names in columns.items():
            query = sql.SQL("SELECT * FROM {} LIMIT {}").format(
                sql.Identifier(schema, table), sql.Literal(ROWS_PER_TABLE)
            )
            try:
                rows[table] = [dict(zip(names, r)) for r in conn.execute(query).fetchall()]
            except psycopg.Error:
                rows[table] = []

    def distinct(table: str, column: str) -> list | None:
        if column not in columns.get(table, []):
            return None
        seen, out = set(), []
        for row in rows.get(table, []):
            value = row.get(column)
            if value is not None and repr(value) not in seen:
                seen.add(repr(value))
                out.append(value)
        return out

    def repeated(table: str, column: str) -> list:
        counts: dict[str, list] = {}
        for row in rows.get(table, []):
            value = row.get(column)
            if value is not None:
                counts.setdefault(repr(value), []).append(value)
        return [vs[0] for vs in counts.values() if len(vs) > 1]

    view = DataView(distinct, repeated)
    view.columns = columns
    view.texts = _texts(rows)
    view.rows = rows
    for table, col in keys:
        view.keys.setdefault(table, []).append(col)
    for table, cols in uniques:
        if cols:  # an expression index has no column names
            view.uniques.setdefault(table, []).append(list(cols))
    for _kind, table, cols, parent, parent_cols in constraints:
        view.foreign.setdefault(table, []).append((list(cols), parent, list(parent_cols)))
    for table, col, definition in checks:
        texts = [t.replace("''", "'") for t in re.findall(r"'((?:[^']|'')*)'", definition)]
        view.checks.setdefault((table, col), []).extend(t for t in texts if t)
    return view, rows


def _texts(rows: dict[str, list[dict]]) -> list[str]:
    """Distinct short texts of the export, those with a line break, a trailing blank or a
    non-ASCII letter first: where conversions of string handling differ."""
    seen: dict[str, None] = {}
    for table_rows in rows.values():
        for row in table_rows:
            for value in row.values():
                if isinstance(value, str) and 0 < len(value) <= 60:
                    seen.setdefault(value)

    def unusual(s: str) -> bool:
        return "\n" in s or s != s.rstrip() or not s.isascii()

    return sorted(seen, key=lambda s: not unusual(s))[:8]


def pg_routine_args(dsn: str, target: Target) -> tuple[list[int], list[PgArg]]:
    """The converted routine: the OIDs of the overload with as many parameters as the Oracle
    signature and of its helpers (`<name>__...`, e.g. an autonomous body), and its parameters
    (name, mode, PostgreSQL type)."""
    modes = {"i": "IN", "o": "OUT", "b": "INOUT", "v": "IN", "t": "OUT"}
    with psycopg.connect(dsn, autocommit=True) as conn:
        helpers = [
            oid
            for (oid,) in conn.execute(
                "SELECT p.oid::bigint FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace "
                "WHERE n.nspname = %s AND starts_with(p.proname, %s)",
                (target.pg_schema, target.pg_name + "__"),
            ).fetchall()
        ]
        rows = conn.execute(
            "SELECT p.oid::bigint, p.proargnames, p.proargmodes, "
            "ARRAY(SELECT pg_catalog.format_type(t, NULL) FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) t) "
            "FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace "
            "WHERE n.nspname = %s AND p.proname = %s",
            (target.pg_schema, target.pg_name),
        ).fetchall()
    best = None
    for oid, names, pmodes, types in rows:
        pmodes = pmodes or ["i"] * len(types)
        if len(types) != len(target.params):
            continue
        score = sum(pg_family(t) == p.family for t, p in zip(types, target.params))
        if best is None or score > best[0]:  # overloads: the one whose types match Oracle's
            args = [PgArg(n or "", modes[m], t) for n, m, t in zip(names or [""] * len(types), pmodes, types)]
            best = (score, [oid, *helpers], args)
    return (best[1], best[2]) if best else (helpers, [])


def read_view(dsn: str, schema: str, view: str, data: DataView) -> tuple[list[dict], dict[str, str]]:
    """A view's rows (up to ROWS_PER_TABLE) and its columns' families, for DML on a view with an
    INSTEAD OF trigger. A view has no key; the column a row is told apart by is set in `data`
    (keys and uniques, so a new row gets a value no row holds, as long as the others): a
    column carrying a base table's primary key name whose values are distinct and not NULL, else
    the first such column."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        cols = conn.execute(
            "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute a "
            "JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relname = %s AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
            (schema, view),
        ).fetchall()
        names = [c for c, _t in cols]
        try:
            query = sql.SQL("SELECT * FROM {} LIMIT {}").format(
                sql.Identifier(schema, view), sql.Literal(ROWS_PER_TABLE)
            )
            rows = [dict(zip(names, r)) for r in conn.execute(query).fetchall()]
        except psycopg.Error:
            rows = []
    families = {c: pg_family(t) for c, t in cols}
    distinct = [c for c in names if rows and all(r.get(c) is not None for r in rows)
                and len({repr(r.get(c)) for r in rows}) == len(rows)]  # fmt: skip
    base_keys = {c for cs in data.keys.values() for c in cs}
    key = next((c for c in distinct if c in base_keys), distinct[0] if distinct else None)
    if key is not None:
        data.keys[view] = [key]
        data.uniques[view] = [[key]]
    return rows, families


def pg_function_oids(dsn: str, schema: str, names: list[str]) -> list[int]:
    """The OIDs of the functions and procedures of `schema` named `names` (every overload): a
    package variable's getter and setter (`pkg.v`, `pkg.set__v`), an object type's method
    (`t__m`); the probes its steps are meant to execute."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        return [
            oid
            for (oid,) in conn.execute(
                "SELECT p.oid::bigint FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace "
                "WHERE n.nspname = %s AND p.proname = ANY(%s) ORDER BY p.proname, p.oid",
                (schema, names),
            ).fetchall()
        ]


def pg_family(pg_type: str) -> str:
    """The value family of a PostgreSQL type as format_type prints it."""
    t = pg_type.lower()
    if t.startswith(("numeric", "integer", "bigint", "smallint", "double", "real")):
        return "number"
    if t.startswith(("character", "text", "varchar")):
        return "text"
    if t.startswith(("timestamp", "date")):
        return "date"
    return "bool" if t == "boolean" else "other"
