"""The `oracompat` runtime library, deployed once before all converted units.

API (all in schema ``oracompat``):
* ``sqlcode(sqlstate) → integer`` / ``sqlerrm(sqlstate, message) → text``: Oracle-shaped SQLCODE and
  SQLERRM inside handlers (from `errors.ORA_ERRORS`); ``sqlerrm(sqlstate, message, constraint,
  schema, table, column) → text``: SQLERRM naming the constraint / column as Oracle does
  (``ORA-02291: integrity constraint (OWNER.NAME) violated - parent key not found``), fed by the
  handler's GET STACKED DIAGNOSTICS; ``sqlerrm_of(code)``; ``app_errcode(code)``
  → SQLSTATE for RAISE_APPLICATION_ERROR with a computed code.
* ``cursor_isopen(refcursor) → boolean``.
* ``put(text)``, ``new_line()``, ``put_line(text)``: DBMS_OUTPUT with a per-session line buffer;
  each completed line is one NOTICE.
* ``pkg_get(key) → text`` / ``pkg_set(key, text)``: package state in session GUCs.
* ``aa_get/aa_set/aa_exists/aa_count/aa_first_n/aa_last_n/aa_next_n/aa_prior_n`` (+ ``_s`` for
  VARCHAR2 keys): associative arrays as jsonb objects; ``arr_next/arr_prior`` for arrays.
* ``self_dsn() → text``: libpq connection string to this same database (autonomous transactions).
* ``bind_positional(sql) → text``: ``:name``/``:1`` placeholders → ``$n`` in dynamic SQL text.
"""

from __future__ import annotations

from pathlib import Path

from harness.ground_truth.oracle_errors import (
    FK_CHILD_MESSAGE_PREFIX,
    runtime_object_cases,
    runtime_sqlcode_cases,
    runtime_sqlerrm_of_cases,
)

# Extensions the runtime needs, installed before the preamble runs: by the harness's admin into each
# fresh scratch database (converted code never runs as a role that could install them), and by
# OUT/support/00_extensions.sql for someone deploying OUT/deploy.sql by hand.
EXTENSIONS: tuple[str, ...] = ("dblink",)  # autonomous transactions (loopback sessions)

RUNTIME_SQL: str = (
    Path(__file__)
    .with_name("runtime.sql")
    .read_text(encoding="utf-8")
    .replace("/*SQLCODE_CASES*/", runtime_sqlcode_cases())
    .replace("/*SQLERRM_OBJECT_CASES*/", runtime_object_cases())
    .replace("/*SQLERRM_OF_CASES*/", runtime_sqlerrm_of_cases())
    .replace("/*FK_CHILD_PREFIX*/", FK_CHILD_MESSAGE_PREFIX.replace("'", "''"))
)
