"""`migrator data load` against a real PostgreSQL: one unit per table, COPY, rejects, checksums,
foreign keys, resume, and the output folder's load.sql run by psql."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import psycopg
import pytest

from migrator.data.run import DataLoadError, load

SCHEMA = """
CREATE TABLE dept (deptno integer PRIMARY KEY, dname varchar(14) NOT NULL, loc text);
CREATE TABLE emp (
  empno integer PRIMARY KEY, ename varchar(10), hired timestamp(0), sal numeric(7,2) CHECK (sal >= 0),
  note text, photo bytea, seen timestamptz, deptno integer REFERENCES dept);
"""

# the child's rows come first in the export: the load still puts dept first
EXPORT = """REM INSERTING into EMP
SET DEFINE OFF;
Insert into EMP (EMPNO,ENAME,HIRED,SAL,NOTE,PHOTO,SEEN,DEPTNO) values (7369,'SMITH',to_date('17-DEC-80','DD-MON-RR'),800,'it''s
two lines',HEXTORAW('0A0b'),TO_TIMESTAMP_TZ('2020-01-02 10:11:12.123456 +02:00','YYYY-MM-DD HH24:MI:SS.FF TZH:TZM'),20);
Insert into EMP (EMPNO,ENAME,HIRED,SAL,NOTE,PHOTO,SEEN,DEPTNO) values (7499,'ALLEN',to_date('20/02/1981','DD/MM/YYYY'),1.6E3,q'[tab	here; and \\ backslash]',NULL,NULL,30);
Insert into EMP (EMPNO,ENAME,HIRED,SAL,NOTE,PHOTO,SEEN,DEPTNO) values (7521,'WARD_IS_TOO_LONG',NULL,1250,'','',NULL,30);
Insert into EMP (EMPNO,ENAME,HIRED,SAL,NOTE,PHOTO,SEEN,DEPTNO) values (7566,'JONES',to_date('31/02/1981','DD/MM/YYYY'),2975,NULL,NULL,NULL,20);
Insert into EMP (EMPNO,ENAME,HIRED,SAL,NOTE,PHOTO,SEEN,DEPTNO) values (7369,'DUP',NULL,1,NULL,NULL,NULL,20);
Insert into EMP (EMPNO,ENAME,HIRED,SAL,NOTE,PHOTO,SEEN,DEPTNO) values (7654,'MARTIN',NULL,-5,NULL,NULL,NULL,30);
Insert into EMP (EMPNO,ENAME,HIRED,SAL,NOTE,PHOTO,SEEN,DEPTNO) values (7698,'BLAKE',NULL,2850,'a'||CHR(10)||'b',NULL,NULL,99);
Insert into EMP (EMPNO,ENAME,HIRED,SAL,NOTE,PHOTO,SEEN,DEPTNO) values (7782,'CLARK',NULL,2450,TO_CLOB('x')||TO_CLOB('y'),NULL,NULL,10);
INSERT INTO emp (empno, ename, sal, deptno) SELECT 7900, 'JAMES', 950, 30 FROM dual;
REM INSERTING into DEPT
Insert into DEPT (DEPTNO,DNAME,LOC) values (10,'ACCOUNTING',N'NEW YORK');
Insert into DEPT (DEPTNO,DNAME,LOC) values (20,'RESEARCH','DALLAS');
Insert into DEPT (DEPTNO,DNAME,LOC) values (30,'SALES','CHICAGO');
Insert into DEPT (DEPTNO,DNAME,LOC) values (40,NULL,'BOSTON');
COMMIT;
"""


@pytest.fixture
def db(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(SCHEMA)
    return pg_dsn


def _rows(dsn: str, sql: str) -> list[tuple]:
    with psycopg.connect(dsn) as conn:
        return conn.execute(sql).fetchall()


def test_load_rejects_and_validates(db, tmp_path: Path):
    src = tmp_path / "export.sql"
    src.write_text(EXPORT, encoding="utf-8")
    out = tmp_path / "out"
    run = load([src], db, out)
    by = {t.table: t for t in run.tables}
    assert [t.table for t in run.tables] == ["dept", "emp"]  # parents first
    dept, emp = by["dept"], by["emp"]
    assert (dept.rows_read, dept.rows_loaded, dept.rows_rejected) == (4, 3, 1)
    assert (emp.rows_read, emp.rows_loaded, emp.rows_rejected, emp.statements) == (8, 3, 5, 1)
    assert dept.checksums_agree and dept.source_checksum
    assert emp.source_checksum == ""  # an INSERT ... SELECT wrote a row the source values do not describe
    bad = (out / "rejects" / "emp.bad").read_text(encoding="utf-8")
    for where, reason in [("export.sql:6", "length"), ("export.sql:7", "type"), ("export.sql:8", "unique"),
                          ("export.sql:9", "CHECK"), ("export.sql:10", "foreign key")]:  # fmt: skip
        assert f"-- {where}: {reason}" in bad
    assert "values (7521,'WARD_IS_TOO_LONG',NULL,1250,'','',NULL,30);" in bad  # the original text
    assert "-- export.sql:17: NOT NULL" in (out / "rejects" / "dept.bad").read_text(encoding="utf-8")
    got = _rows(
        db, "SELECT empno, ename, hired::text, sal::text, note, photo, seen AT TIME ZONE 'UTC' FROM emp ORDER BY 1"
    )
    assert got[0][:6] == (7369, "SMITH", "1980-12-17 00:00:00", "800.00", "it's\ntwo lines", b"\n\x0b")
    assert str(got[0][6]) == "2020-01-02 08:11:12.123456"
    assert got[1][3:5] == ("1600.00", "tab\there; and \\ backslash")
    assert [g[0] for g in got] == [7369, 7499, 7782, 7900] and got[2][4] == "xy"
    report = json.loads((out / "data-report.json").read_text(encoding="utf-8"))
    assert report["rows_rejected"] == 6 and report["rows_read"] == 12
    assert run.ok  # every table loaded, every comparable checksum agrees


def test_resume_loads_nothing_twice(db, tmp_path: Path):
    src = tmp_path / "export.sql"
    src.write_text(EXPORT, encoding="utf-8")
    out = tmp_path / "out"
    load([src], db, out)
    with pytest.raises(DataLoadError, match="--resume"):
        load([src], db, out)
    again = load([src], db, out, resume=True)  # every table was recorded as loaded
    assert _rows(db, "SELECT count(*) FROM dept") == [(3,)]
    assert [t.rows_loaded for t in again.tables] == [3, 3]  # COPY rows (the INSERT ... SELECT is a statement)


def test_max_rejects_rolls_the_table_back(db, tmp_path: Path):
    src = tmp_path / "export.sql"
    src.write_text(EXPORT, encoding="utf-8")
    run = load([src], db, tmp_path / "out", max_rejects=2)
    emp = next(t for t in run.tables if t.table == "emp")
    assert emp.error and "--max-rejects" in emp.error and emp.rows_loaded == 0
    assert _rows(db, "SELECT count(*) FROM emp") == [(0,)]
    assert not run.ok


def test_disabled_constraint_is_validated_after(db, tmp_path: Path):
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute("ALTER TABLE emp DROP CONSTRAINT emp_deptno_fkey")
        conn.execute("ALTER TABLE emp ADD CONSTRAINT emp_dept_fk FOREIGN KEY (deptno) REFERENCES dept")
    src = tmp_path / "export.sql"
    src.write_text("ALTER TABLE emp DISABLE CONSTRAINT emp_dept_fk;\n" + EXPORT, encoding="utf-8")
    run = load([src], db, tmp_path / "out")
    (fk,) = run.constraints
    assert not fk.validated and fk.orphan_keys == [["99"]]  # BLAKE's department does not exist
    assert _rows(db, "SELECT convalidated FROM pg_constraint WHERE conname = 'emp_dept_fk'") == [(False,)]


@pytest.mark.skipif(shutil.which("psql") is None, reason="psql is not installed")
def test_load_sql_replays_without_the_rejects(db, tmp_path: Path, pg_engine):
    src = tmp_path / "export.sql"
    src.write_text(EXPORT, encoding="utf-8")
    out = tmp_path / "out"
    load([src], db, out)
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute("TRUNCATE emp, dept")
    done = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", db, "-f", str(out / "load.sql")],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert _rows(db, "SELECT count(*) FROM emp") == [(4,)] and _rows(db, "SELECT count(*) FROM dept") == [(3,)]


def test_cli_data_load(db, tmp_path: Path, capsys):
    from migrator.cli.main import main

    src = tmp_path / "export.sql"
    src.write_text(EXPORT, encoding="utf-8")
    code = main(["data", "load", str(src), "--pg-dsn", db, "--out", str(tmp_path / "out"), "--no-progress"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "emp: 8 read, 3 loaded, 5 rejected -> rejects/emp.bad; checksum not comparable" in printed
    assert "dept: 4 read, 3 loaded, 1 rejected -> rejects/dept.bad; checksums agree" in printed


def test_other_data_statements_run_with_their_table_in_order(db, tmp_path: Path):
    src = tmp_path / "export.sql"
    src.write_text(
        "INSERT INTO dept VALUES (10, 'A', NULL);\nUPDATE dept SET loc = NVL(loc, 'nowhere') WHERE deptno = 10;\n"
        "INSERT INTO dept VALUES (20, 'B', NULL);\nDELETE FROM emp;\n",
        encoding="utf-8",
    )
    run = load([src], db, tmp_path / "out")
    dept = next(t for t in run.tables if t.table == "dept")
    assert (dept.rows_loaded, dept.statements) == (2, 1) and not dept.error
    assert _rows(db, "SELECT deptno, loc FROM dept ORDER BY 1") == [(10, "nowhere"), (20, None)]
