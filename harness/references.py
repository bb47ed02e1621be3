"""Inner-reference resolution: are the names inside PL/pgSQL bodies real?

PostgreSQL accepts a PL/pgSQL body whose queries name tables, columns or functions that do not
exist; it only fails when that line runs. `plpgsql_check` (a Debian package / compose image)
checks every body statically. Where it is not installed, we say so: references were then only
exercised by the scenarios, and a unit is never reported as if they had been checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import psycopg

from harness.sandbox import CHECK_SCHEMA, one


@dataclass
class RoutineTracker:
    """Records which PL/pgSQL routines each deployed unit created (OIDs grow monotonically in a
    fresh scratch database, so new routines are those above the previous high-water mark)."""

    created: dict[str, list[int]] = field(default_factory=dict)
    _mark: int = 0

    def __call__(self, conn: psycopg.Connection, unit_id: str) -> None:
        rows = conn.execute(
            "SELECT p.oid::bigint FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang "
            "WHERE l.lanname = 'plpgsql' AND p.oid::bigint > %s ORDER BY 1",
            (self._mark,),
        ).fetchall()
        if rows:
            self.created.setdefault(unit_id, []).extend(r[0] for r in rows)
            self._mark = rows[-1][0]


def plpgsql_check_available(conn: psycopg.Connection) -> bool:
    row = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'plpgsql_check'").fetchone()
    return row is not None


def plpgsql_check_installed(conn: psycopg.Connection) -> bool:
    """Installed by the sandbox's admin into the fresh template (`check_references=True`), in a
    schema of its own that no converted code has on its search_path."""
    return conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'plpgsql_check'").fetchone() is not None


_CHECK = f"""
SELECT t.level, t.message, coalesce(t.statement, '')
FROM {CHECK_SCHEMA}.plpgsql_check_function_tb(%(oid)s::oid::regprocedure,
       coalesce((SELECT tgrelid FROM pg_trigger WHERE tgfoid = %(oid)s::oid LIMIT 1), 0)::regclass) t
WHERE t.level = 'error'
"""


def check_references(dsn: str, created: dict[str, list[int]]) -> dict[str, list[str]] | None:
    """Per unit, the errors plpgsql_check finds in its routines; None when it is not installed.
    Runs on the execution role's connection: checking hostile code needs no privileges."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        if not plpgsql_check_installed(conn):
            return None
        problems: dict[str, list[str]] = {}
        for unit_id, oids in created.items():
            found: list[str] = []
            for oid in oids:
                name = one(conn, "SELECT %s::oid::regprocedure::text", (oid,))[0]
                try:
                    rows = conn.execute(_CHECK, {"oid": oid}).fetchall()
                except psycopg.Error as exc:
                    found.append(f"{name}: plpgsql_check failed: {str(exc).strip()}")
                    continue
                found += [f"{name}: {msg}" for _level, msg, _stmt in rows]
            problems[unit_id] = found
        return problems
