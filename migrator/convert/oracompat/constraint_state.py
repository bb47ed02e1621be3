"""Oracle constraint states (ENABLE / DISABLE [VALIDATE | NOVALIDATE]) at run time
(`constraint_state.sql`): PostgreSQL has no disabled constraint, so DISABLE drops one and keeps
its definition, ENABLE puts it back (NOT VALID for NOVALIDATE where PostgreSQL allows it).
Deployed with the rest of the library; `migrator.convert.ddl.alter` writes the calls."""

from __future__ import annotations

from pathlib import Path

CONSTRAINT_STATE_SQL: str = Path(__file__).with_name("constraint_state.sql").read_text(encoding="utf-8")
