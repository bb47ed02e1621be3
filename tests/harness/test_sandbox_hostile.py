"""Hostile converted code, run by the judge on the embedded server and on a superuser DSN.

Every attack below worked before the sandbox existed (deploys and scenarios ran as superuser).
Each test first proves its canary can fire — the same attack as the admin does reach the host or
the DSN's own database — so a pass means the sandbox stopped it, not that the check was blind.
The superuser-DSN server is Debian's PostgreSQL 15 in CI (MIGRATOR_SUPERUSER_DSN); elsewhere
those cases are skipped with that reason.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from harness.engines.postgres import DsnPostgres, EmbeddedPostgres
from harness.ground_truth.scenarios import ScenarioFile, TranscriptFile
from harness.judge.verify import UnitToVerify, verify
from migrator.batch.output import required_extensions

SUPERUSER_DSN = os.environ.get("MIGRATOR_SUPERUSER_DSN")
ENGINES = [
    "embedded",
    pytest.param(
        "superuser-dsn",
        marks=pytest.mark.skipif(
            not SUPERUSER_DSN,
            reason="no second PostgreSQL server with a superuser DSN here "
            "(CI starts Debian's PostgreSQL 15 and sets MIGRATOR_SUPERUSER_DSN)",
        ),
    ),
]


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    eng = (
        EmbeddedPostgres(extensions=required_extensions())
        if request.param == "embedded"
        else DsnPostgres(SUPERUSER_DSN, required_extensions())
    )
    with eng:
        yield eng


@pytest.fixture
def canary(engine, canary_dir):
    """A folder for marker files and a table in the DSN's own database that attacks try to drop."""
    folder = canary_dir
    table = f"migrator_canary_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(engine.admin_dsn(), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE TABLE {} (x int)").format(sql.Identifier(table)))
    yield folder, table
    with psycopg.connect(engine.admin_dsn(), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(table)))


def _admin_db(engine) -> str:
    return psycopg.conninfo.conninfo_to_dict(engine.admin_dsn())["dbname"]


def _table_exists(engine, table: str) -> bool:
    with psycopg.connect(engine.admin_dsn(), autocommit=True) as conn:
        return conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f"public.{table}",)).fetchone()[0]


def _file_settings(engine) -> list[tuple]:
    with psycopg.connect(engine.admin_dsn(), autocommit=True) as conn:
        return conn.execute("SELECT sourcefile, name, setting FROM pg_file_settings ORDER BY 1, 2").fetchall()


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _touch(path: Path) -> str:
    """A shell command for COPY ... TO PROGRAM that creates `path`. It reads what COPY writes
    first: a bare `touch` may exit before the server writes its row, and the server then fails
    the COPY with 'could not close pipe to external command: Broken pipe' (seen under load)."""
    return f"cat > /dev/null; touch {path}"


def test_canaries_fire_for_the_admin(engine, canary):
    """The attacks are real: as the admin they reach the host and the DSN's database."""
    folder, table = canary
    with psycopg.connect(engine.admin_dsn(), autocommit=True) as conn:
        conn.execute(f"COPY (SELECT 1) TO PROGRAM {_lit(_touch(folder / 'admin'))}")
        conn.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(table)))
    assert (folder / "admin").exists()
    assert not _table_exists(engine, table)


def _attacks(folder: Path, table: str, admin_db: str, host_dsn_base: str) -> dict[str, str]:
    """unit id -> hostile SQL that runs when the unit deploys (as converted code would)."""
    dsn_to_admin_db = psycopg.conninfo.make_conninfo(host_dsn_base, dbname=admin_db)
    return {
        "data:s.copy_program": f"COPY (SELECT 1) TO PROGRAM {_lit(_touch(folder / 'program'))};",
        "data:s.copy_file": f"COPY (SELECT 'x') TO {_lit(str(folder / 'file'))};",
        "data:s.lo_export": f"SELECT lo_export(lo_from_bytea(0, 'x'), {_lit(str(folder / 'lo'))});",
        "data:s.read_file": "CREATE TABLE leaked AS SELECT pg_read_file('/etc/hostname') AS t;",
        "data:s.alter_system": "ALTER SYSTEM SET work_mem = '1MB';",
        "data:s.create_role": "CREATE ROLE migrator_evil SUPERUSER LOGIN;",
        "data:s.drop_dsn_db": f"DROP DATABASE {psycopg.sql.Identifier(admin_db).as_string(None)};",
        "data:s.rename_dsn_db": f"ALTER DATABASE {psycopg.sql.Identifier(admin_db).as_string(None)} RENAME TO gone;",
        "data:s.dblink_dsn_db": f"SELECT dblink_exec({_lit(dsn_to_admin_db)}, {_lit('DROP TABLE ' + table)});",
        "data:s.signal": "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid();",
        # Built at run time from pieces, called by a data statement: the deploy-time route.
        "function:s.sneaky": (
            "CREATE FUNCTION sneaky() RETURNS int LANGUAGE plpgsql AS $$ DECLARE v text := 'CO'; BEGIN "
            f"EXECUTE v || 'PY (SELECT 1) TO PRO' || 'GRAM ' || {_lit(_lit(_touch(folder / 'sneaky')))}; "
            "RETURN 1; END $$;"
        ),
        "data:s.call_sneaky": "CREATE TABLE called AS SELECT sneaky() AS x;",
    }


def test_hostile_units_are_refused_and_reach_nothing(engine, canary):
    folder, table = canary
    attacks = _attacks(folder, table, _admin_db(engine), engine.admin_dsn())
    units = [
        UnitToVerify(uid, text, ("function:s.sneaky",) if uid == "data:s.call_sneaky" else (), True)
        for uid, text in attacks.items()
    ]
    settings_before = _file_settings(engine)
    result = verify(engine, "SELECT 1;", units, None, None, do_nothing=False)
    verdicts = {v.unit_id: v for v in result.agent.verdicts}
    # Nothing reached the host, the DSN's database, or the server's roles and settings.
    assert sorted(p.name for p in folder.iterdir()) == []
    assert _table_exists(engine, table)
    with psycopg.connect(engine.admin_dsn(), autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM pg_roles WHERE rolname = 'migrator_evil'").fetchone()[0] == 0
    assert _file_settings(engine) == settings_before
    # Each attack is reported on its own unit, with the server's reason.
    for uid in attacks:
        if uid == "function:s.sneaky":
            continue  # defining the function is harmless; calling it is the attack
        v = verdicts[uid]
        assert v.category == "rejected", (uid, v.category, v.reason)
        assert any(
            word in v.reason
            for word in ("permission denied", "must be", "pg_hba.conf", "password", "privilege", "only superuser")
        ), (uid, v.reason)


def test_runtime_attack_in_a_scenario_step(engine, canary):
    """A function that reaches for the host only when a scenario calls it: the step fails with the
    server's refusal and the unit is judged on that, nothing else happens."""
    folder, table = canary
    fn = (
        "CREATE FUNCTION app_total() RETURNS int LANGUAGE plpgsql AS $$ BEGIN "
        f"EXECUTE 'COPY (SELECT 1) TO PROGRAM ' || quote_literal({_lit(_touch(folder / 'step'))}); "
        "RETURN 1; END $$;"
    )
    scen = ScenarioFile.model_validate(
        {
            "schema": "s",
            "scenarios": [
                {
                    "id": "t",
                    "units": ["function:s.app_total"],
                    "steps": [
                        {"name": "call", "oracle": "SELECT app_total FROM dual", "postgres": "SELECT app_total()"}
                    ],
                }
            ],
        }
    )
    trans = TranscriptFile.model_validate(
        {
            "schema": "s",
            "provenance": {"kind": "authored", "author": "t", "basis": "b"},
            "outcomes": {"t": {"call": {"rows": [[1]]}}},
        }
    )
    result = verify(
        engine, "SELECT 1;", [UnitToVerify("function:s.app_total", fn, (), True)], scen, trans, do_nothing=False
    )
    v = result.agent.verdicts[0]
    assert not (folder / "step").exists()
    assert v.category == "wrong"
    assert "42501" in str(v.first_mismatch) or "permission" in str(v.first_mismatch).lower()


def test_database_settings_carrying_sql_are_replayed_as_data(engine, canary):
    """A unit sets its database's application_name to text holding SQL; every scenario clone
    replays the template's settings. Replaying must treat the value as data."""
    _folder, table = canary
    payload = f"x'; DROP TABLE {table}; --"
    unit = (
        "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET application_name = %L', current_database(), "
        f"{_lit(payload)}); END $$;"
    )
    scen = ScenarioFile.model_validate(
        {
            "schema": "s",
            "scenarios": [
                {
                    "id": "t",
                    "units": ["data:s.settings"],
                    "steps": [
                        {
                            "name": "name",
                            "oracle": "SELECT 1 FROM dual",
                            "postgres": "SELECT current_setting('application_name') = " + _lit(payload),
                        }
                    ],
                }
            ],
        }
    )
    trans = TranscriptFile.model_validate(
        {
            "schema": "s",
            "provenance": {"kind": "authored", "author": "t", "basis": "b"},
            "outcomes": {"t": {"name": {"rows": [[True]]}}},
        }
    )
    result = verify(
        engine, "SELECT 1;", [UnitToVerify("data:s.settings", unit, (), True)], scen, trans, do_nothing=False
    )
    assert _table_exists(engine, table)
    assert result.agent.verdicts[0].category == "correct"  # the setting arrived intact, as a value


def test_execution_role_is_unprivileged(engine):
    role = engine.sandbox.role
    assert role.dedicated and role.name.startswith("migrator_exec_")
    with psycopg.connect(engine.admin_dsn(), autocommit=True) as conn:
        flags = conn.execute(
            "SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls "
            "FROM pg_roles WHERE rolname = %s",
            (role.name,),
        ).fetchone()
        members = conn.execute(
            "SELECT count(*) FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = %s",
            (role.name,),
        ).fetchone()[0]
    assert flags == (False, False, False, False, False)
    assert members == 0


AUTONOMOUS = """
CREATE TABLE log_t (msg VARCHAR2(100));
CREATE OR REPLACE PROCEDURE log_it(p VARCHAR2) IS
  PRAGMA AUTONOMOUS_TRANSACTION;
BEGIN
  INSERT INTO log_t (msg) VALUES (p);
  COMMIT;
END;
/
"""


def test_autonomous_transactions_work_for_the_execution_role(engine, tmp_path):
    """The dblink loopback opens as the execution role, into its own scratch database."""
    import yaml

    from migrator.batch.pipeline import MigrateOptions, migrate

    src = tmp_path / "app"
    src.mkdir()
    (src / "all.sql").write_text(AUTONOMOUS)
    step = "BEGIN; CALL log_it('kept'); ROLLBACK; SELECT count(*) FROM log_t"
    (tmp_path / "scen.yaml").write_text(
        yaml.safe_dump(
            {
                "schema": "app",
                "scenarios": [
                    {
                        "id": "auto",
                        "units": ["procedure:app.log_it"],
                        "steps": [
                            {"name": "survives", "oracle": "BEGIN log_it('kept'); ROLLBACK; END;", "postgres": step}
                        ],
                    }
                ],
            }
        )
    )
    (tmp_path / "trans.yaml").write_text(
        yaml.safe_dump(
            {
                "schema": "app",
                "provenance": {
                    "kind": "authored",
                    "author": "test",
                    "basis": "an autonomous transaction commits on its own",
                },
                "outcomes": {"auto": {"survives": {"rows": [[1]]}}},
            }
        )
    )
    report = migrate(
        src,
        tmp_path / "out",
        MigrateOptions(
            deploy=engine.admin_dsn(),
            verify=True,
            progress=False,
            scenarios=tmp_path / "scen.yaml",
            transcript=tmp_path / "trans.yaml",
        ),
    )
    assert report.sandbox.dedicated and report.sandbox.notes == []
    unit = next(u for u in report.units if u.kind == "procedure")
    assert unit.category == "correct", (unit.verdict, unit.first_mismatch)
