"""PostgreSQL's COPY text format: rows written as COPY reads them.

A table's data unit is `COPY … FROM STDIN;`, these rows and a `\\.` line: the unit file psql runs
(`psql -f deploy.sql`) and what the sandbox streams through psycopg's COPY
(`harness.judge.deploy.execute_script`), so both load the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable

from migrator.data.rows import COPY_ESCAPES, NULL_FIELD, Value

NULL = NULL_FIELD
END_OF_DATA = "\\."
# backslash and the control characters COPY TO writes escaped (\b \f \n \r \t \v): a text value is
# sent as PostgreSQL writes it back, which the checksum relies on (loader.py)
_ESCAPES = COPY_ESCAPES


def field(value: Value) -> str:
    if value is None:
        return NULL
    if isinstance(value, bytes):
        return "\\\\x" + value.hex()  # bytea's hex input, its backslash escaped for COPY
    return value.translate(_ESCAPES)


def line(values: Iterable[Value]) -> str:
    return "\t".join(field(v) for v in values) + "\n"


def copy_command(table: str, columns: Iterable[str] | None) -> str:
    cols = f" ({', '.join(columns)})" if columns is not None else ""
    return f"COPY {table}{cols} FROM STDIN;\n"
