"""Rows for the tables an export leaves empty (a DDL-only export: no INSERT anywhere).

Without rows, a trigger has nothing to fire on, a lookup only ever finds nothing and every call
ends in NO_DATA_FOUND: the synthesized steps would cover the error paths alone. So synthesis
makes a few rows for each empty table and puts them in the setup of every scenario it writes
(one statement: a PL/SQL block of INSERTs on Oracle, the same INSERTs on PostgreSQL). The
recorded ground truth then rests on rows both systems hold, never on rows only the port has.

Rows follow the schema's own rules, which the deployed database checks: parents before
children (a foreign key takes a value of a parent row), distinct values in key and unique
columns, the literals a CHECK constraint names for its column (`status IN ('NEW', 'OPEN')`),
numbers that fit their precision, texts that fit their length, and the last row leaves its
nullable columns NULL; numeric keys far above where a sequence starts (900001...), so the rows
the code inserts with keys from a sequence do not collide with them. Each table's INSERT is tried on the template inside a transaction that
is rolled back (the template is never changed): a table whose rows its constraints or triggers
refuse is left empty, and the reason is kept for the report.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal

import psycopg

from harness.ground_truth.scenarios import Statement
from migrator.evidence.catalog_reads import pg_family
from migrator.evidence.steps import dml_step
from migrator.evidence.values import DataView, literal
from migrator.oracle_types import NUMBER_SPELLINGS, parse

ROWS = 3
KEY_BASE = 900000  # numeric keys of the rows made: 900001, 900002, ... (or the column's largest values)


@dataclass
class _Column:
    name: str
    pg_type: str
    not_null: bool
    has_default: bool
    generated: bool
    checks: list[str] = field(default_factory=list)  # literals a CHECK constraint names for it
    oracle_type: str = ""  # as the export declares it (NUMBER(4) became smallint; Oracle holds 9999 at most)


@dataclass
class Seed:
    """The rows made for the export's empty tables: per table the rows (column -> value) as the
    DataView reads them and their INSERTs for each system (in the order they were tried: parents
    first); `refused`: table -> why it stays empty."""

    rows: dict[str, list[dict]]
    refused: dict[str, str]
    inserts: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)  # table -> (Oracle, PostgreSQL)
    parents: dict[str, set[str]] = field(default_factory=dict)  # table -> the tables its foreign keys name

    def statement(self, tables: set[str] | None = None) -> Statement | None:
        """One setup statement inserting the rows of `tables` (all, when None) and of the tables
        their foreign keys need, transitively: a scenario holds the rows its code can reach."""
        if tables is not None:
            todo, tables = list(tables), set()
            while todo:
                t = todo.pop()
                if t not in tables:
                    tables.add(t)
                    todo += self.parents.get(t, set())
        chosen = [t for t in self.inserts if tables is None or t in tables]
        if not chosen:
            return None
        ora = [q for t in chosen for q in self.inserts[t][0]]
        pg = [q for t in chosen for q in self.inserts[t][1]]
        return Statement(oracle="BEGIN\n" + "\n".join(f"    {q};" for q in ora) + "\nEND;", postgres=";\n".join(pg))


def seed_empty_tables(dsn: str, schema: str, data: DataView,
                      oracle_types: dict[str, dict[str, str]] | None = None) -> Seed:  # fmt: skip
    """Rows for the export's tables when it holds no row at all. An export with data keeps its
    empty tables empty: there an empty table is a fact of the source (an audit log not yet
    written, a staging table), and rows made up for it would change what its code sees."""
    empty = [t for t, rows in data.rows.items() if not rows]
    if not empty or len(empty) < len(data.rows):
        return Seed({}, {})
    with psycopg.connect(dsn, autocommit=False) as conn:
        columns = _columns(conn, schema, empty)
        for table, cols in columns.items():
            for c in cols:
                c.oracle_type = (oracle_types or {}).get(table, {}).get(c.name, "")
        made: dict[str, list[dict]] = {}
        refused: dict[str, str] = {}
        inserts: dict[str, tuple[list[str], list[str]]] = {}
        try:
            for table in _parents_first(empty, data):
                rows = _rows(table, columns.get(table, []), data, made)
                if isinstance(rows, str):
                    refused[table] = rows
                    continue
                statements = insert_statements(table, rows, {c.name: _family(c.pg_type) for c in columns[table]})
                ora_sql, pg_sql = [q.oracle for q in statements], [q.postgres for q in statements]
                conn.execute("SAVEPOINT seed")
                try:
                    for text in pg_sql:
                        conn.execute(text.encode("utf-8"))
                except psycopg.Error as exc:
                    conn.execute("ROLLBACK TO SAVEPOINT seed")
                    refused[table] = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0][:160]}"
                    continue
                conn.execute("RELEASE SAVEPOINT seed")
                made[table] = rows
                inserts[table] = (ora_sql, pg_sql)
        finally:
            conn.rollback()  # the template stays the export
    parents = {t: {p for _c, p, _pc in data.foreign.get(t, []) if p != t and p in inserts} for t in inserts}
    return Seed(made, refused, inserts, parents)


def made_rows(dsn: str, schema: str, table: str, data: DataView,
              oracle_types: dict[str, str] | None = None) -> list[dict]:  # fmt: skip
    """Rows for one empty table of an export that has data elsewhere, made as seed rows are
    (foreign keys take the export's parent rows) but never put into the database: a trigger on
    the table is fired by inserting them, and its UPDATE and DELETE steps insert them first.
    [] when the table's columns or parents allow none."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        columns = _columns(conn, schema, [table]).get(table, [])
    for c in columns:
        c.oracle_type = (oracle_types or {}).get(c.name, "")
    rows = _rows(table, columns, data, {})
    return [] if isinstance(rows, str) else rows


def _columns(conn, schema: str, tables: list[str]) -> dict[str, list[_Column]]:
    out: dict[str, list[_Column]] = {}
    for table, name, pg_type, not_null, has_default, generated in conn.execute(
        "SELECT c.relname, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull, a.atthasdef, "
        "a.attgenerated <> '' OR a.attidentity = 'a' FROM pg_catalog.pg_attribute a "
        "JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relname = ANY(%s) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum",
        (schema, tables),
    ).fetchall():
        out.setdefault(table, []).append(_Column(name, pg_type, not_null, has_default, generated))
    for table, definition, cols in conn.execute(
        "SELECT c.relname, pg_catalog.pg_get_constraintdef(k.oid), "
        "ARRAY(SELECT a.attname::text FROM unnest(k.conkey) u(n) JOIN pg_catalog.pg_attribute a "
        "      ON a.attrelid = k.conrelid AND a.attnum = u.n) "
        "FROM pg_catalog.pg_constraint k JOIN pg_catalog.pg_class c ON c.oid = k.conrelid "
        "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relname = ANY(%s) AND k.contype = 'c' ORDER BY c.relname, k.conname",
        (schema, tables),
    ).fetchall():
        if len(cols) != 1:  # a rule between columns: the rows may break it, and the table stays empty
            continue
        literals = [s.replace("''", "'") for s in re.findall(r"'((?:[^']|'')*)'", definition)]
        for c in out.get(table, []):
            if c.name == cols[0]:
                c.checks += literals
    return out


def _parents_first(tables: list[str], data: DataView) -> list[str]:
    """`tables` ordered so a table comes after the tables its foreign keys name (a cycle is
    broken where it closes; a self-reference orders nothing)."""
    order: list[str] = []
    seen: set[str] = set()

    def visit(t: str, path: set[str]) -> None:
        if t in seen or t in path:
            return
        for _cols, parent, _pcols in data.foreign.get(t, []):
            if parent != t and parent in tables:
                visit(parent, path | {t})
        seen.add(t)
        order.append(t)

    for t in tables:
        visit(t, set())
    return order


def _rows(table: str, columns: list[_Column], data: DataView, made: dict[str, list[dict]]) -> list[dict] | str:
    """ROWS rows of `table`, or why none can be made."""
    keys = set(data.keys.get(table, [])) | {name for cols in data.uniques.get(table, []) for name in cols}
    parents: dict[str, tuple[str, str, int]] = {}  # column -> (parent table, parent column, position)
    for cols, parent, pcols in data.foreign.get(table, []):
        for pos, (name, pc) in enumerate(zip(cols, pcols)):
            parents[name] = (parent, pc, pos)
    rows: list[dict] = [{} for _ in range(ROWS)]
    for c in columns:
        if c.generated:
            continue
        for k, row in enumerate(rows):
            if c.name in parents:
                parent, pcol, _pos = parents[c.name]
                held = made.get(parent) or data.rows.get(parent) or []
                if parent == table:  # a self-reference: the first row is a root, the others its children
                    row[c.name] = None if k == 0 and not c.not_null else rows[0].get(pcol, k + 1)
                elif held:
                    row[c.name] = held[min(k, len(held) - 1)].get(pcol)
                elif c.not_null:
                    return f"its parent table {parent} has no rows"
                else:
                    row[c.name] = None
                continue
            if k == ROWS - 1 and not c.not_null and c.name not in keys:
                row[c.name] = None  # the last row: NULL where the table allows it
                continue
            value = _value(c, k, c.name in keys)
            if value is _UNSUPPORTED:
                if c.not_null and not c.has_default:
                    return f"column {c.name} of type {c.pg_type} cannot be given a value"
                row[c.name] = None
                continue
            row[c.name] = value
    return rows


_UNSUPPORTED = object()


def _value(c: _Column, k: int, key: bool):
    t = c.pg_type.lower()
    if c.checks and _family(t) == "text":
        return c.checks[k % len(c.checks)]
    if c.checks and _family(t) == "number":
        nums = [Decimal(x) for x in c.checks if re.fullmatch(r"-?\d+(\.\d+)?", x)]
        if nums:
            return nums[k % len(nums)]
    if t.startswith(("numeric", "integer", "bigint", "smallint", "double", "real")):
        top = (
            largest_number(c.oracle_type)
            if c.oracle_type
            else Decimal(32767)
            if t.startswith("smallint")
            else largest_number(t)
        )
        if key:  # far from where a sequence starts: the rows the code inserts get keys of their own
            return top - ROWS + k + 1 if top is not None and top < KEY_BASE + ROWS else Decimal(KEY_BASE + k + 1)
        n = Decimal(10 * (k + 1))
        return min(n, top) if top is not None else n
    if t.startswith(("character", "text")):
        size = re.search(r"\((\d+)\)", t)
        text = f"{c.name[:3].upper()}{k + 1}" if key else f"{c.name} {k + 1}"
        if size:
            width = int(size.group(1))
            text = text[:width] if len(text) <= width or not key else f"{text[: max(0, width - 1)]}{k + 1}"[-width:]
        return text
    if t.startswith(("timestamp", "date")):
        return dt.datetime(2024, 1 + 3 * k, 15, 9 if "timestamp" in t and k else 0, 0, 0)
    if t == "boolean":
        return k % 2 == 0
    if t == "bytea":
        return bytes([15 * (k + 1)])
    return _UNSUPPORTED


def largest_number(type_text: str) -> Decimal | None:
    """The largest value a NUMBER(p[, s]) / numeric(p[, s]) holds; None when the type says no precision."""
    t = parse(type_text)
    if t is None or t.name not in NUMBER_SPELLINGS or not isinstance(t.precision, int):
        return None  # NUMBER, NUMBER(*, s), INTEGER, FLOAT: no precision of its own written
    precision, scale = t.precision, t.scale or 0
    return Decimal(10) ** (precision - scale) - 1 if precision > scale else Decimal(0)


def _family(pg_type: str) -> str:
    fam = pg_family(pg_type)
    return "text" if fam == "other" else fam  # (a value of another type is written as its text)


def insert_statements(table: str, rows: list[dict], families: dict[str, str]) -> list[Statement]:
    """One INSERT per row (Oracle has no multi-row VALUES before 23c), written for each system."""
    out = []
    for row in rows:
        step = dml_step("setup", table, "INSERT", {c: literal(v, families.get(c, "text")) for c, v in row.items()}, {})
        out.append(Statement(oracle=step.oracle, postgres=step.postgres))
    return out
