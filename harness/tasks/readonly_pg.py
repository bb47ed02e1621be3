"""The PostgreSQL side of `harness.tasks.readonly_sql`: one database (or one schema of it) by DSN.

Each query runs alone in a `BEGIN READ ONLY` transaction that is always rolled back, with
`statement_timeout` set inside that transaction, and is sent through the extended protocol, which
refuses a second statement in the same string. Give it a role that can only read: read-only
transactions stop writes to tables, not every side effect a function may have.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import psycopg
from psycopg import sql as pgsql

from harness.tasks.readonly_sql import Limits, QueryResult, capped_result


@dataclass
class PostgresReadOnly:
    dsn: str
    schema: str | None = None  # search_path for unqualified names (one benchmark database per schema)
    limits: Limits = field(default_factory=Limits)
    dialect: str = "postgres"

    def __post_init__(self) -> None:
        self._conn = psycopg.connect(self.dsn, autocommit=False)
        self._conn.read_only = True

    def _prepare(self, cur) -> None:
        ms = max(1, int(self.limits.timeout_s * 1000))
        cur.execute(pgsql.SQL("SET LOCAL statement_timeout = {}").format(pgsql.Literal(ms)))
        if self.schema:
            cur.execute(pgsql.SQL("SET LOCAL search_path TO {}").format(pgsql.Identifier(self.schema)))

    def run(self, sql: str) -> QueryResult:
        t0 = time.perf_counter()
        try:
            with self._conn.cursor() as cur:
                self._prepare(cur)
                # prepare=True: the extended protocol (Parse), which refuses a second statement; without
                # parameters psycopg would use the simple protocol and run "SELECT 1; COMMIT; DELETE ...".
                cur.execute(sql.rstrip().rstrip(";"), prepare=True)
                names = tuple(d.name for d in cur.description or ())
                rows = cur.fetchmany(self.limits.row_cap + 1) if cur.description else []
        except psycopg.errors.QueryCanceled:
            self._conn.rollback()
            return QueryResult("timeout", error=f"timed out after {self.limits.timeout_s:g} s", code="57014")
        except psycopg.Error as err:
            self._conn.rollback()
            message = err.diag.message_primary or str(err)
            return QueryResult("error", error=message, code=err.sqlstate or "", seconds=time.perf_counter() - t0)
        self._conn.rollback()
        return capped_result(rows, names, self.limits.row_cap, time.perf_counter() - t0)

    def schema_rows(self) -> list[tuple[str, str]]:
        """(table name, a CREATE TABLE text rebuilt from the catalog) for the tables in view."""
        query = (
            "SELECT c.table_name, string_agg(format('%I %s', c.column_name, c.data_type), ', '"
            " ORDER BY c.ordinal_position) FROM information_schema.columns c"
            " JOIN information_schema.tables t USING (table_schema, table_name)"
            " WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'"
            " GROUP BY c.table_name ORDER BY c.table_name"
        )
        with self._conn.cursor() as cur:
            self._prepare(cur)
            cur.execute(query)
            found = cur.fetchall()
        self._conn.rollback()
        return [(name, f"CREATE TABLE {name} ({cols})") for name, cols in found]

    def close(self) -> None:
        self._conn.close()
