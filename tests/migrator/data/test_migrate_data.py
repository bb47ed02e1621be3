"""`migrate` with table data: one unit per table, rows PostgreSQL refuses split out at deploy, and
the output folder's deploy.sql loads the same rows with psql without stopping."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import psycopg
import pytest

from migrator.batch.pipeline import MigrateOptions, migrate

SCHEMA = """CREATE TABLE dept (deptno NUMBER(2) PRIMARY KEY, dname VARCHAR2(14));
CREATE TABLE emp (empno NUMBER(4) PRIMARY KEY, ename VARCHAR2(10), deptno NUMBER(2) REFERENCES dept);
"""
DATA = """INSERT INTO dept VALUES (10, 'ACCOUNTING');
INSERT INTO dept VALUES (20, 'RESEARCH');
INSERT INTO emp VALUES (1, 'KING', 10);
INSERT INTO emp VALUES (2, 'FORD', 20);
INSERT INTO emp VALUES (2, 'DUPLICATE', 20);
INSERT INTO emp VALUES (3, 'ORPHAN', 99);
INSERT INTO emp VALUES (4, 'MUCH_TOO_LONG_NAME', 10);
INSERT INTO emp VALUES (5, 'SCOTT', 20);
"""


@pytest.mark.skipif(shutil.which("psql") is None, reason="psql is not installed")
def test_refused_rows_split_out_and_deploy_sql_runs(tmp_path: Path, pg_dsn):
    src = tmp_path / "src"
    src.mkdir()
    (src / "tables.sql").write_text(SCHEMA, encoding="utf-8")
    (src / "data.sql").write_text(DATA, encoding="utf-8")
    out = tmp_path / "out"
    report = migrate(src, out, MigrateOptions(schema="hr", deploy="embedded", progress=False))
    data = {u.id: u for u in report.units if u.kind == "data"}
    assert sorted(data) == ["data:hr.dept", "data:hr.emp"]
    assert data["data:hr.emp"].deployed and any("3 rows refused" in n for n in data["data:hr.emp"].notes)
    bad = (out / "rejects" / "hr.emp.bad").read_text(encoding="utf-8")
    assert "-- data.sql:5: unique:" in bad and "INSERT INTO emp VALUES (2, 'DUPLICATE', 20)" in bad
    assert "-- data.sql:6: foreign key:" in bad and "-- data.sql:7: length:" in bad
    emp = (out / "data" / "hr.emp.sql").read_text(encoding="utf-8")
    assert "DUPLICATE" not in emp and "SCOTT" in emp
    run = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", pg_dsn, "-f", str(out / "deploy.sql")],
                         capture_output=True, text=True)  # fmt: skip
    assert run.returncode == 0, run.stderr
    with psycopg.connect(pg_dsn) as conn:
        assert conn.execute("SELECT empno, ename FROM emp ORDER BY 1").fetchall() == [
            (1, "KING"),
            (2, "FORD"),
            (5, "SCOTT"),
        ]
