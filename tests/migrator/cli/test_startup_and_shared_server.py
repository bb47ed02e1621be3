"""What a user feels before any work: `--help` without the heavy imports, `--workers`, the
shared local server (`migrator pg start|stop|status`) with the sandbox's guarantees kept, and
the converted-line count. Speed itself is measured in benchmarks/, never asserted here."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from migrator.batch.pipeline import MigrateOptions, migrate, nonblank_lines
from migrator.cli.main import main

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("numpy", "psycopg", "faiss", "pydantic", "sqlglot", "pglast", "torch", "yaml", "networkx")


def _modules_after(code: str) -> list[str]:
    probe = code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    return out.stdout.split()


def test_help_and_usage_errors_import_no_heavy_module():
    for argv in (["--help"], ["migrate", "--help"], ["kb", "--help"], ["pg", "--help"], ["migrate"]):
        code = f"from migrator.cli.main import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass"
        loaded = _modules_after(code)
        heavy = sorted({m.split(".")[0] for m in loaded if m.split(".")[0] in HEAVY})
        assert not heavy, (argv, heavy)


def test_a_conversion_without_deploy_imports_no_database_driver(tmp_path):
    """`migrate --no-deploy` talks to no server: psycopg stays unloaded, also for names that must be
    quoted (quote_ident quotes as psycopg's sql.Identifier does, without importing it: ~0.15 s)."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "t.sql").write_text('CREATE TABLE "Mixed Case" ("Select" NUMBER, "a""b" VARCHAR2(10));\n')
    out = tmp_path / "out"
    code = f"from migrator.cli.main import main\nmain(['migrate', {str(src)!r}, '--out', {str(out)!r}, '--no-deploy'])"
    loaded = _modules_after(code)
    assert "migrator.batch.pipeline" in loaded and "psycopg" not in loaded
    converted = "".join(p.read_text() for p in out.rglob("*.sql"))
    assert '"Mixed Case"' in converted and '"a""b"' in converted


def test_the_knowledge_base_package_still_exports_its_names_lazily():
    loaded = _modules_after("import knowledge_base.cli")
    assert "numpy" not in loaded and "knowledge_base.store" not in loaded
    import knowledge_base

    assert knowledge_base.KnowledgeBase.__module__ == "knowledge_base.store"
    assert set(knowledge_base.__all__) <= set(dir(knowledge_base))
    with pytest.raises(AttributeError):
        knowledge_base.nothing_here  # noqa: B018


def test_workers_flag_reaches_the_pipeline(tmp_path, monkeypatch, capsys):
    import migrator.batch.pipeline as pipeline

    seen = {}
    real = pipeline.migrate

    def spy(src, out, opts, **kw):  # kw: the reading run_migrate began
        seen["workers"] = opts.workers
        return real(src, out, opts, **kw)

    monkeypatch.setattr(pipeline, "migrate", spy)
    src = tmp_path / "app"
    src.mkdir()
    (src / "t.sql").write_text("CREATE TABLE t (a NUMBER);\n")
    assert main(["migrate", str(src), "--out", str(tmp_path / "o"), "--no-deploy", "--workers", "2"]) == 0
    assert seen["workers"] == 2
    for bad in ("0", "-1", "two"):
        with pytest.raises(SystemExit) as exc:
            main(["migrate", str(src), "--out", str(tmp_path / "o"), "--workers", bad])
        assert exc.value.code == 2
    assert "--workers" in capsys.readouterr().err


def test_converted_lines_count_only_non_blank_lines(tmp_path):
    assert nonblank_lines("a\n\n   \n\tb\n") == 2
    src = tmp_path / "app"
    src.mkdir()
    (src / "t.sql").write_text(
        "CREATE TABLE t (\n\n  a NUMBER,\n   \n  b NUMBER\n);\n\n\nCREATE VIEW v AS\nSELECT a FROM t;\n"
    )
    report = migrate(src, tmp_path / "out", MigrateOptions(progress=False))
    assert report.summary.converted_lines == 6


@pytest.fixture
def shared_root(tmp_path, monkeypatch):
    """The shared server's folder goes under a private root; stopped whatever the test did."""
    root = Path(os.environ.get("TMPDIR", "/tmp")) / f"mps-{os.getpid()}"
    root.mkdir(exist_ok=True)
    monkeypatch.setenv("MIGRATOR_PG_WORKDIR", str(root))
    monkeypatch.delenv("MIGRATOR_PG_SHARED", raising=False)
    monkeypatch.delenv("MIGRATOR_PG_DSN", raising=False)
    yield root
    from harness.engines.postgres import stop_shared_server

    stop_shared_server()
    import shutil

    shutil.rmtree(root, ignore_errors=True)


def _exec_roles(admin_dsn: str) -> list[str]:
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        return [r for (r,) in conn.execute("SELECT rolname FROM pg_roles WHERE rolname LIKE 'migrator\\_exec\\_%'")]


def test_pg_start_status_stop_and_runs_attach_with_their_own_execution_role(shared_root, tmp_path, capsys):
    from harness.engines.postgres import SharedEmbeddedPostgres, engine_from_spec, shared_server

    assert main(["pg", "status"]) == 1
    assert main(["pg", "start"]) == 0
    info = shared_server()
    assert info is not None and info.folder.parent == shared_root
    assert main(["pg", "start"]) == 0 and "already running" in capsys.readouterr().out
    assert main(["pg", "status"]) == 0

    engine = engine_from_spec("embedded")
    assert isinstance(engine, SharedEmbeddedPostgres)
    with engine:
        role = engine.sandbox.exec_role
        assert role.dedicated and role.name in _exec_roles(info.admin_dsn)
        with psycopg.connect(info.admin_dsn, autocommit=True) as conn:
            flags = conn.execute(
                "SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = %s", (role.name,)
            ).fetchone()
        assert flags == (False, False, False)
        # pg_hba.conf: the execution role reaches no database but scratch ones, and only with its password
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(psycopg.conninfo.make_conninfo(engine.dsn("postgres"))).close()
        assert main(["pg", "stop"]) == 1  # a run is attached
        assert "attached" in capsys.readouterr().out
    assert role.name not in _exec_roles(info.admin_dsn)  # dropped at the end of the run

    src = tmp_path / "app"
    src.mkdir()
    (src / "t.sql").write_text("CREATE TABLE t (a NUMBER);\n")
    report = migrate(src, tmp_path / "out", MigrateOptions(deploy="embedded", progress=False))
    assert report.summary.deployed == 1 and report.engine == "embedded"
    assert shared_server() is not None and shared_server().pid == info.pid  # the server outlives the run
    assert _exec_roles(info.admin_dsn) == []

    assert main(["pg", "stop"]) == 0
    assert shared_server() is None and not info.folder.exists()
    assert main(["pg", "status"]) == 1


def test_a_shared_server_without_the_sandbox_rules_is_refused(shared_root):
    from harness.engines.postgres import EngineUnavailable, engine_from_spec, start_shared_server

    info, _ = start_shared_server()
    with psycopg.connect(info.admin_dsn, autocommit=True) as conn:
        hba = Path(conn.execute("SHOW hba_file").fetchone()[0])
        hba.write_text("\n".join(line for line in hba.read_text().splitlines() if "migrator" not in line) + "\n")
        conn.execute("SELECT pg_reload_conf()")
    with pytest.raises(EngineUnavailable, match="sandbox's rules"):
        with engine_from_spec("embedded"):
            pass


def test_a_killed_run_on_the_shared_server_is_cleaned_up_by_the_next(shared_root, tmp_path):
    from harness.engines.postgres import engine_from_spec, start_shared_server

    info, _ = start_shared_server()
    hang = (
        "import time\nfrom harness.engines.postgres import engine_from_spec, scratch_database\n"
        "e = engine_from_spec('embedded').__enter__()\n"
        "n = e.sandbox.new_name('x'); e.sandbox.create_database(n)\n"
        "print(e.sandbox.exec_role.name, n, flush=True)\ntime.sleep(600)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", hang], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    role, db = proc.stdout.readline().split()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert role in _exec_roles(info.admin_dsn)
    with engine_from_spec("embedded"):  # the next run's Sandbox.open() reaps the dead run's leftovers
        pass
    assert role not in _exec_roles(info.admin_dsn)
    with psycopg.connect(info.admin_dsn, autocommit=True) as conn:
        assert conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (db,)).fetchone() is None


def test_a_dead_shared_server_is_reaped_and_never_attached_to(shared_root):
    from harness.engines.embedded_reaper import OWNER_FILE, reap_stale_workdirs
    from harness.engines.postgres import EmbeddedPostgres, engine_from_spec, shared_server, start_shared_server

    info, _ = start_shared_server()
    assert json.loads((info.folder / OWNER_FILE).read_text())["pid"] == info.pid  # owned by its postmaster
    assert reap_stale_workdirs(str(shared_root)) == []  # alive: kept
    os.kill(info.pid, signal.SIGKILL)
    import psutil

    def gone() -> bool:
        try:
            return psutil.Process(info.pid).status() == psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return True

    deadline = time.monotonic() + 10
    while not gone() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert shared_server() is None
    # a private server instead, whose start reaps the dead shared server's folder first
    assert isinstance(engine_from_spec("embedded"), EmbeddedPostgres)
    assert not info.folder.exists()
