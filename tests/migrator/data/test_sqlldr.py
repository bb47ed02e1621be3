"""SQL*Loader control and data files through the same loader: the same rows and checksums as the
same data exported as INSERTs."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from migrator.data.run import load
from migrator.data.sqlldr import read_control

SCHEMA = """CREATE TABLE dept (deptno integer PRIMARY KEY, dname varchar(14) NOT NULL, loc text);
CREATE TABLE emp (empno integer PRIMARY KEY, ename varchar(10), hired timestamp(0), sal numeric(7,2),
                  deptno integer REFERENCES dept);"""
INSERTS = """Insert into DEPT (DEPTNO,DNAME,LOC) values (10,'ACCOUNTING','NEW YORK');
Insert into DEPT (DEPTNO,DNAME,LOC) values (20,'RESEARCH',NULL);
Insert into EMP (EMPNO,ENAME,HIRED,SAL,DEPTNO) values (7369,'SMITH',to_date('17/12/1980','DD/MM/YYYY'),800,20);
Insert into EMP (EMPNO,ENAME,HIRED,SAL,DEPTNO) values (7499,'O''NEIL, J',to_date('20/02/1981','DD/MM/YYYY'),1600.5,10);
Insert into EMP (EMPNO,ENAME,HIRED,SAL,DEPTNO) values (7521,'WARD',NULL,NULL,NULL);
"""
EMP_CTL = """OPTIONS (SKIP=1, ERRORS=10)
LOAD DATA
CHARACTERSET WE8MSWIN1252
INFILE 'emp.csv'
BADFILE 'emp.bad'
TRUNCATE
INTO TABLE emp
FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"'
TRAILING NULLCOLS
(empno INTEGER EXTERNAL, ename CHAR, hired DATE "DD/MM/YYYY", sal DECIMAL EXTERNAL, deptno)
"""
EMP_CSV = 'EMPNO,ENAME,HIRED,SAL,DEPTNO\n7369,SMITH,17/12/1980,800,20\n7499,"O\'NEIL, J",20/02/1981,1600.5,10\n7521,WARD\n7566,JONES,31/02/1981,2975,20\n7777,TOO_LONG_NAME_HERE,,1,20\n'
DEPT_CTL = """LOAD DATA
INFILE *
APPEND
INTO TABLE dept
(deptno POSITION(1:2) INTEGER EXTERNAL, dname POSITION(3:16) CHAR, loc POSITION(17:30) CHAR)
BEGINDATA
10ACCOUNTING    NEW YORK
20RESEARCH
"""


@pytest.fixture
def db(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(SCHEMA)
    return pg_dsn


def test_control_file_options(tmp_path: Path):
    (tmp_path / "emp.ctl").write_text(EMP_CTL, encoding="utf-8")
    ctl = read_control(tmp_path / "emp.ctl")
    assert (ctl.table, ctl.mode, ctl.skip, ctl.encoding, ctl.terminator, ctl.enclosure) == (
        "emp", "TRUNCATE", 1, "cp1252", ",", '"')  # fmt: skip
    assert ctl.trailing_nullcols and [f.kind for f in ctl.fields] == ["NUMBER", "CHAR", "DATE", "NUMBER", "CHAR"]
    assert ctl.fields[2].mask == "DD/MM/YYYY"


def test_sqlldr_loads_what_the_insert_export_loads(db, tmp_path: Path):
    (tmp_path / "inserts.sql").write_text(INSERTS, encoding="utf-8")
    from_inserts = load([tmp_path / "inserts.sql"], db, tmp_path / "out1")
    sums = {t.table: t.loaded_checksum for t in from_inserts.tables}
    with psycopg.connect(db, autocommit=True) as conn:
        before = conn.execute("SELECT * FROM emp ORDER BY 1").fetchall()
        conn.execute("TRUNCATE emp, dept")
    ldr = tmp_path / "ldr"
    ldr.mkdir()
    (ldr / "emp.ctl").write_text(EMP_CTL, encoding="utf-8")
    (ldr / "emp.csv").write_bytes(EMP_CSV.encode("cp1252"))
    (ldr / "dept.ctl").write_text(DEPT_CTL, encoding="utf-8")
    run = load([ldr], db, tmp_path / "out2")
    by = {t.table: t for t in run.tables}
    assert [t.table for t in run.tables] == ["dept", "emp"]
    assert by["dept"].rows_loaded == 2 and by["emp"].rows_loaded == 3 and by["emp"].rows_rejected == 2
    assert {t.table: t.loaded_checksum for t in run.tables} == sums  # same rows, same checksums
    assert all(t.checksums_agree for t in run.tables)
    with psycopg.connect(db) as conn:
        assert conn.execute("SELECT * FROM emp ORDER BY 1").fetchall() == before
    bad = (tmp_path / "out2" / "rejects" / "emp.bad").read_text(encoding="utf-8")
    assert "-- emp.csv:5: type:" in bad and "7566,JONES,31/02/1981,2975,20" in bad
    assert "-- emp.csv:6: length:" in bad and "7777,TOO_LONG_NAME_HERE,,1,20" in bad
