"""The file gate: server files for converted code (UTL_FILE, BFILE), behind SECURITY DEFINER functions.

PostgreSQL reads and writes server files only for roles that may (`pg_read_server_files`,
`pg_write_server_files`, EXECUTE on `lo_export`); the role that runs converted code holds none of
them (`pg_sandbox.SERVER_ROLES`). So a trusted installer — the sandbox's admin connection, or a
DBA running `OUT/support/00_extensions.sql` — creates schema ``oracompat_fs`` (`file_gate.sql`),
whose functions reach only `<folder of a registered directory object>/<one file name>`. The
``oracompat`` library's UTL_FILE and DBMS_LOB file members call them.

During verification the gate is *confined*: every directory object is a file-name prefix inside
`<sandbox files root>/<scratch database>/`, a folder the sandbox creates for each scratch database
and clone (PostgreSQL cannot create folders), whatever path the export's CREATE DIRECTORY names.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a conversion without deploy writes GATE_SQL and imports no database driver
    import psycopg

GATE_SQL: str = Path(__file__).with_name("file_gate.sql").read_text(encoding="utf-8")


def install(conn: psycopg.Connection, confine_root: str | None) -> list[str]:
    """Create the gate in the database `conn` is connected to (as a role that may use server files)
    and confine it to `confine_root` when given. Returns notes for the run's report (none today)."""
    notes: list[str] = []
    conn.execute(GATE_SQL)
    conn.execute(
        "INSERT INTO oracompat_fs.setting (one, confine_root) VALUES (true, %s) "
        "ON CONFLICT (one) DO UPDATE SET confine_root = EXCLUDED.confine_root",
        (confine_root,),
    )
    # FREMOVE / FRENAME use adminpack where the server has it (its functions are revoked from PUBLIC
    # by the extension itself: only the gate calls them); without it they raise at run time, saying so
    if conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'adminpack'").fetchone() is not None:
        conn.execute("CREATE EXTENSION IF NOT EXISTS adminpack")
    return notes


def directories_sql(mapping: dict[str, str]) -> str:
    """INSERTs that map Oracle directory names to server folders (the user's `--directory` setting),
    for the installer's script."""
    from harness.quoting import pg_string

    return "".join(
        f"INSERT INTO oracompat_fs.directory (name, path, pinned) VALUES ({pg_string(name)}, {pg_string(path)}, true) "
        "ON CONFLICT (name) DO UPDATE SET path = EXCLUDED.path, pinned = true;\n"
        for name, path in sorted(mapping.items())
    )
