"""A folder of schema folders migrated as one run (fixtures/multischema: hr_core, sales, reports),
executed on a real PostgreSQL: each folder's objects live in its own schema, names of other
schemas' objects resolve, synonyms, grants and data across schemas deploy and behave."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg

from harness.judge.deploy import execute_script
from migrator.batch.output import PREAMBLE
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.source.reader import read_schema_dir

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "multischema"


def test_schema_folders_are_detected_and_own_their_objects():
    source = read_schema_dir(FIXTURE)
    assert source.owners == ["hr_core", "reports", "sales"]
    owner = {u.id.split(":", 1)[1].split("#")[0]: u.schema for u in source.units}
    assert owner["hr_core.employees"] == "hr_core"
    assert owner["sales.orders"] == "sales"
    assert owner["reporting.big_orders"] == "reporting"  # the file's own ALTER SESSION SET CURRENT_SCHEMA


def test_flag_forbids_and_map_renames():
    assert read_schema_dir(FIXTURE, multi_schema=False).owners == []
    assert {u.schema for u in read_schema_dir(FIXTURE, multi_schema=False).units} == {"multischema", "reporting"}
    mapped = read_schema_dir(FIXTURE, schema_map={"sales": "crm"})
    assert "table:crm.orders" in {u.id for u in mapped.units}


def test_one_schema_folder_is_not_multi_schema(tmp_path):
    (tmp_path / "only").mkdir()
    (tmp_path / "only" / "t.sql").write_text("CREATE TABLE t (id NUMBER);\n")
    assert read_schema_dir(tmp_path).owners == []


def test_multi_schema_run_deploys_and_behaves(pg_engine, pg_dsn, tmp_path):
    out = tmp_path / "out"
    report = migrate(FIXTURE, out, MigrateOptions(deploy=pg_engine.admin_dsn(), progress=False))
    failed = {u.id: u.deploy_error for u in report.units if not u.deployed}
    # what does not deploy is said precisely: the export disables emp_dept_fk, a name its tables
    # never declare (the foreign key is unnamed), and fails as Oracle does (ORA-02431); its ALTER
    # SESSION SET CURRENT_SCHEMA is applied by the reader
    assert set(failed) == {"alter:hr_core.employees#1"}, failed
    assert "ORA-02431" in failed["alter:hr_core.employees#1"]
    # the run's own files, replayed in deployment order on a fresh database
    deployed = {u["output"] for u in json.loads((out / "report.json").read_text())["units"] if u["deployed"]}
    included = [line.split(" ", 1)[1] for line in (out / "deploy.sql").read_text().splitlines() if line[:4] == "\\ir "]
    order = [p for p in included if p in deployed]
    # data in foreign-key order across the file's own order (employees' rows come first in the export)
    assert order.index("data/hr_core.departments.sql") < order.index("data/hr_core.employees.sql")
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute((out / PREAMBLE).read_text())
        for path in order:
            assert execute_script(conn, (out / path).read_text()) == (None, None), path
        conn.execute("SET search_path = sales, oracompat, public")
        rows = conn.execute("SELECT last_name, total FROM sales.rep_totals ORDER BY 1").fetchall()
        assert [(n, float(t)) for n, t in rows] == [("King", 260.5), ("Kochhar", 99.5)]
        assert conn.execute("SELECT count(*) FROM hr_core.employees").fetchone() == (2,)
        assert conn.execute("SELECT count(*) FROM sales.emp").fetchone() == (2,)  # the synonym
        assert conn.execute("SELECT order_id FROM reporting.big_orders ORDER BY 1").fetchall() == [(1,), (2,)]
        assert conn.execute("SELECT hr_core.annual_pay(100)").fetchone()[0] == 24000
        notices: list[str] = []
        conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
        conn.execute("CALL sales.show_rep(101)")
        assert notices == ["Kochhar earns 18000"]
        tables = conn.execute(
            "SELECT table_schema || '.' || table_name FROM information_schema.tables "
            "WHERE table_schema IN ('hr_core', 'sales', 'reporting', 'multischema') ORDER BY 1"
        ).fetchall()
        assert [t for (t,) in tables] == [
            "hr_core.departments", "hr_core.employees", "reporting.big_orders",
            "sales.emp", "sales.orders", "sales.rep_totals",
        ]  # fmt: skip


def test_spatial_column_converts_and_a_spatial_function_needs_postgis():
    """SDO_GEOMETRY is data (oracompat/spatial.sql: composite types in schema mdsys); SDO_GEOM's
    functions compute geometry and are reported as needing PostGIS."""
    from migrator.convert.dispatch import convert_unit, prepare_context
    from migrator.source.units import SourceSet, SourceSpan, Unit, UnitKind

    def convert(kind: UnitKind, name: str, text: str):
        unit = Unit(
            f"{kind.value}:geo.{name}", kind, "geo", name, text, SourceSpan("g.sql", 1, 1, 0, len(text)), "utf-8"
        )
        return convert_unit(unit, prepare_context(SourceSet(root=".", schema="geo", units=[unit])))

    table = convert(UnitKind.TABLE, "sites", "CREATE TABLE sites (id NUMBER PRIMARY KEY, location MDSYS.SDO_GEOMETRY)")
    assert not table.unconverted and "location mdsys.sdo_geometry" in table.output
    view = convert(
        UnitKind.VIEW, "near", "CREATE VIEW near AS SELECT SDO_GEOM.SDO_DISTANCE(a.g, b.g, 1) d FROM s a, s b"
    )
    (item,) = view.unconverted
    assert "SDO_GEOM" in item.construct and "needs PostGIS" in item.message
    assert "MIGRATOR_UNCONVERTED" in view.output  # it cannot deploy


def test_current_schema_in_one_folder_creates_objects_in_that_schema(pg_engine, tmp_path):
    src = tmp_path / "app"
    src.mkdir()
    (src / "a.sql").write_text(
        "CREATE TABLE t (id NUMBER PRIMARY KEY);\n"
        "ALTER SESSION SET CURRENT_SCHEMA = audit;\n"
        "CREATE TABLE t (id NUMBER PRIMARY KEY, note VARCHAR2(10));\n"
        "INSERT INTO t VALUES (1, 'x');\n"
    )
    out = tmp_path / "out"
    report = migrate(src, out, MigrateOptions(deploy=pg_engine.admin_dsn(), progress=False))
    assert {u.id: u.deployed for u in report.units} == {
        "table:app.t": True, "other:app.alter_session#1": True, "table:audit.t": True, "data:audit.t": True,
    }  # fmt: skip
    assert "SET search_path = audit" in (out / "data" / "audit.t.sql").read_text()
