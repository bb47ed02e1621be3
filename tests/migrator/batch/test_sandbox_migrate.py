"""The sandbox seen from `migrate`: hostile exports, overlapping folders, --force, weak DSNs, leftovers.

Each case was reproduced on the code before the sandbox (see issue 9's list); the tests prove the
canary can fire where that is not obvious.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pglast
import psycopg
import pytest
from psycopg import sql

from migrator.batch.output import PREAMBLE
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.cli.main import main


def _schema(root: Path, name: str, files: dict[str, str]) -> Path:
    src = root / name
    src.mkdir(parents=True)
    for fname, text in files.items():
        (src / fname).write_text(textwrap.dedent(text), encoding="utf-8")
    return src


def test_injected_package_name_is_one_identifier(pg_engine, tmp_path, canary_dir):
    marker = canary_dir / "p"
    evil = f"x; COPY (SELECT 1) TO PROGRAM 'touch {marker}'; --"
    src = _schema(
        tmp_path,
        "hr",
        {
            "p.pks": f'''
        CREATE OR REPLACE PACKAGE "{evil}" AS
          FUNCTION f RETURN NUMBER;
        END;
        /
        CREATE OR REPLACE PACKAGE BODY "{evil}" AS
          FUNCTION f RETURN NUMBER IS BEGIN RETURN 1; END;
        END;
        /
        '''
        },
    )
    out = tmp_path / "out"
    report = migrate(src, out, MigrateOptions(deploy=pg_engine.admin_dsn(), progress=False))
    assert not marker.exists()
    assert report.preamble_error is None
    preamble = (out / PREAMBLE).read_text()
    schemas = [s.stmt.schemaname for s in pglast.parse_sql(preamble) if type(s.stmt).__name__ == "CreateSchemaStmt"]
    # mdsys: the support library's schema of Oracle Spatial's types (oracompat/spatial.sql)
    assert list(dict.fromkeys(schemas)) == ["oracompat", "hr", evil, "mdsys"]
    deploy = (out / "deploy.sql").read_text().splitlines()
    assert all(line.startswith(("--", "\\set", "\\ir ")) for line in deploy)
    assert all(
        set(line[4:]) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/")
        for line in deploy
        if line.startswith("\\ir ")
    )
    # What was made of it is reported on its units (deployed as a schema named exactly `evil`).
    assert {u.kind for u in report.units} == {"package_spec", "package_body"}


def test_reserved_word_folder_keeps_the_preamble_valid(pg_engine, tmp_path):
    src = _schema(tmp_path, "inner", {"t.tab": "CREATE TABLE t (id NUMBER PRIMARY KEY);\n"})
    report = migrate(src, tmp_path / "out", MigrateOptions(deploy=pg_engine.admin_dsn(), progress=False))
    assert report.preamble_error is None
    assert all(u.deployed for u in report.units), [(u.id, u.deploy_error) for u in report.units]


def test_deploy_time_call_cannot_reach_the_host(pg_engine, tmp_path, canary_dir):
    """A data statement calls a function that builds COPY ... TO PROGRAM at run time."""
    marker = canary_dir / "pwned"
    src = _schema(
        tmp_path,
        "app",
        {
            "t.tab": "CREATE TABLE t (x NUMBER);\n",
            "f.fnc": f"""
            CREATE OR REPLACE FUNCTION f RETURN NUMBER IS
              v_verb VARCHAR2(10) := 'COPY';
            BEGIN
              EXECUTE IMMEDIATE v_verb || ' (SELECT 1) TO PRO' || 'GRAM ''touch {marker}''';
              RETURN 1;
            END;
            /
            """,
            "data.sql": "INSERT INTO t (x) SELECT f() FROM dual;\n",
        },
    )
    report = migrate(src, tmp_path / "out", MigrateOptions(deploy=pg_engine.admin_dsn(), progress=False))
    assert not marker.exists()
    data = next(u for u in report.units if u.kind == "data")
    assert data.deployed is False and "permission denied" in data.deploy_error


@pytest.mark.parametrize("where", ["same", "inside", "containing"])
def test_out_and_source_never_overlap(tmp_path, where, capsys):
    src = _schema(tmp_path / "work", "hr", {"t.tab": "CREATE TABLE t (id NUMBER);\n"})
    (src / "sub").mkdir()
    (src / "sub" / "keep.sql").write_text("CREATE TABLE k (id NUMBER);\n")
    out = {"same": src, "inside": src / "out", "containing": src.parent}[where]
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    assert main(["migrate", str(src), "--out", str(out), "--force", "--no-deploy"]) == 2
    assert "overlap" in capsys.readouterr().err
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == before


def test_force_removes_only_what_a_run_wrote(tmp_path):
    src = _schema(tmp_path, "hr", {"t.tab": "CREATE TABLE t (id NUMBER);\nCREATE TABLE u (id NUMBER);\n"})
    out = tmp_path / "out"
    first = migrate(src, out, MigrateOptions(progress=False))
    (out / "notes.txt").write_text("mine")
    (out / "table" / "my_edit.sql").write_text("-- mine")
    (src / "t.tab").write_text("CREATE TABLE t (id NUMBER);\n")  # table u is gone from the source
    gone = next(u.output for u in first.units if u.name.endswith(".u"))
    second = migrate(src, out, MigrateOptions(force=True, progress=False))
    assert (out / "notes.txt").read_text() == "mine" and (out / "table" / "my_edit.sql").exists()
    assert not (out / gone).exists()
    assert second.output_kept == ["notes.txt", "table/my_edit.sql"]


def test_force_rewrites_unit_files_in_place_and_drops_the_rest(tmp_path):
    from migrator.batch.output import prepare_out_dir, written_files

    src = _schema(tmp_path, "hr", {"t.tab": "CREATE TABLE t (id NUMBER);\nCREATE TABLE u (id NUMBER);\n"})
    out = tmp_path / "out"
    first = migrate(src, out, MigrateOptions(progress=False))
    kept, gone = (next(u.output for u in first.units if u.name.endswith(x)) for x in (".t", ".u"))
    inode = (out / kept).stat().st_ino
    (src / "t.tab").write_text("CREATE TABLE t (id NUMBER, name VARCHAR2(10));\n")
    # what a stopped run finds after this step: its unit file still there and still ours,
    # the other unit's file, deploy.sql and the reports gone
    prepare_out_dir(out, force=True, resume=False, rewrites=frozenset({kept}))
    assert (out / kept).exists() and kept in written_files(out)
    assert not (out / gone).exists() and not (out / "deploy.sql").exists() and not (out / "report.json").exists()
    migrate(src, out, MigrateOptions(force=True, progress=False))
    assert (out / kept).stat().st_ino == inode  # the same file, rewritten
    assert "name" in (out / kept).read_text() and not (out / gone).exists()
    assert written_files(out) >= {kept, "deploy.sql", "report.json"} and gone not in written_files(out)


def test_overwrite_text_reuses_the_file_and_leaves_only_the_new_text(tmp_path):
    from migrator.batch.output import overwrite_text

    path = tmp_path / "unit.sql"
    overwrite_text(path, "CREATE TABLE t (id NUMBER, name TEXT);\n")  # a new file
    inode = path.stat().st_ino
    for text in ("SELECT 'é';\n", "", "CREATE TABLE t (id NUMBER, name TEXT, note TEXT);\n", "x"):
        overwrite_text(path, text)  # shorter, empty, longer, shorter: nothing of the old text stays
        assert path.read_bytes() == text.encode("utf-8") and path.stat().st_ino == inode


def test_rerun_without_verify_leaves_no_stale_pages(tmp_path):
    src = _schema(tmp_path, "hr", {"t.tab": "CREATE TABLE t (id NUMBER);\n"})
    out = tmp_path / "out"
    migrate(src, out, MigrateOptions(progress=False))
    from migrator.batch.output import write_output

    write_output(out, "report.html", "<p>an earlier verified run</p>")  # as a verified run writes it
    migrate(src, out, MigrateOptions(resume=True, progress=False))
    assert not (out / "report.html").exists()


@pytest.fixture
def createdb_dsn(pg_engine):
    """A DSN whose role may create databases but is no superuser and may not create roles."""
    name = f"mig_createdb_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_engine.admin_dsn(), autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE ROLE {} LOGIN CREATEDB PASSWORD {}").format(sql.Identifier(name), sql.Literal("pw"))
        )
    yield psycopg.conninfo.make_conninfo(pg_engine.admin_dsn(), user=name, password="pw")
    with psycopg.connect(pg_engine.admin_dsn(), autocommit=True) as conn:
        for (db,) in conn.execute(
            "SELECT datname FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba WHERE r.rolname = %s", (name,)
        ).fetchall():
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(db)))
        conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))


AUTONOMOUS = """
CREATE TABLE log_t (msg VARCHAR2(100));
CREATE OR REPLACE PROCEDURE log_it(p VARCHAR2) IS
  PRAGMA AUTONOMOUS_TRANSACTION;
BEGIN
  INSERT INTO log_t (msg) VALUES (p);
  COMMIT;
END;
/
CREATE OR REPLACE FUNCTION twice(p NUMBER) RETURN NUMBER IS BEGIN RETURN 2 * p; END;
/
"""


def test_createdb_role_runs_what_it_can_and_reports_the_rest(createdb_dsn, tmp_path):
    src = _schema(tmp_path, "app", {"all.sql": AUTONOMOUS})
    report = migrate(src, tmp_path / "out", MigrateOptions(deploy=createdb_dsn, progress=False))
    assert report.preamble_error is None
    assert report.sandbox is not None and not report.sandbox.dedicated
    assert any("dblink" in n for n in report.sandbox.notes)
    by_name = {u.name.split(".")[-1]: u for u in report.units}
    assert all(u.deployed for u in report.units)
    assert any("AUTONOMOUS_TRANSACTION" in n and "cannot run here" in n for n in by_name["log_it"].notes)
    assert not any("cannot run here" in n for n in by_name["twice"].notes)


def test_a_role_that_reaches_the_host_is_refused(pg_engine, tmp_path, capsys):
    name = f"mig_filer_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_engine.admin_dsn(), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN CREATEDB").format(sql.Identifier(name)))
        conn.execute(sql.SQL("GRANT pg_read_server_files TO {}").format(sql.Identifier(name)))
    try:
        src = _schema(tmp_path, "app", {"t.tab": "CREATE TABLE t (id NUMBER);\n"})
        dsn = psycopg.conninfo.make_conninfo(pg_engine.admin_dsn(), user=name)
        assert main(["migrate", str(src), "--out", str(tmp_path / "out"), "--pg-dsn", dsn]) == 2
        assert "pg_read_server_files" in capsys.readouterr().err
    finally:
        with psycopg.connect(pg_engine.admin_dsn(), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))


_START_AND_HANG = """
import sys, time
from harness.engines.postgres import EmbeddedPostgres
engine = EmbeddedPostgres().__enter__()
print(engine._dir, flush=True)
time.sleep(600)
"""


def test_a_killed_run_leaves_nothing_behind_at_the_next_start(tmp_path):
    env = {**os.environ, "MIGRATOR_PG_WORKDIR": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-c", _START_AND_HANG],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=Path(__file__).resolve().parents[3],
    )
    workdir = Path(proc.stdout.readline().strip())
    pid = int((workdir / "pgdata" / "postmaster.pid").read_text().splitlines()[0])
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    os.kill(pid, 0)  # the server outlived its run: the canary
    from harness.engines.embedded_reaper import reap_stale_workdirs

    assert reap_stale_workdirs(str(tmp_path)) == [workdir]  # what the next EmbeddedPostgres() does first
    assert not workdir.exists()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the stale server is still running")


_POOL_AND_HANG = """
import os, time
from concurrent.futures import ProcessPoolExecutor
import multiprocessing
from migrator.forked import die_with_parent
pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"), initializer=die_with_parent,
                           initargs=(os.getpid(),))
print(" ".join(str(f.result()) for f in [pool.submit(os.getpid) for _ in range(4)]), flush=True)
time.sleep(600)
"""


def test_workers_die_with_their_parent():
    proc = subprocess.Popen(
        [sys.executable, "-c", _POOL_AND_HANG],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    workers = {int(p) for p in proc.stdout.readline().split()}
    assert workers
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while workers and time.monotonic() < deadline:
        for pid in list(workers):
            try:
                os.kill(pid, 0)
                if Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":
                    workers.discard(pid)  # exited, waiting to be reaped by init
            except ProcessLookupError:
                workers.discard(pid)
        time.sleep(0.05)
    assert not workers, f"workers outlived their parent: {workers}"
