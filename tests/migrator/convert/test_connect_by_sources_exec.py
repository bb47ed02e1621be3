"""CONNECT BY over a WITH query and over a view (SQL Language Reference, "Hierarchical Queries":
the FROM item may be any row source): neither has a ctid, so their rows are numbered once in a
materialized CTE the walk reads. Depth-first order with ORDER SIBLINGS BY, LEVEL, CONNECT_BY_ROOT,
SYS_CONNECT_BY_PATH, NOCYCLE with CONNECT_BY_ISCYCLE, and ORA-01436 on a loop, as Oracle gives them."""

from __future__ import annotations

import psycopg
import pytest

from tests.migrator.convert.test_plsql_exec_types import deploy_schema

STAFF = """
CREATE TABLE staff (id NUMBER PRIMARY KEY, mgr NUMBER, name VARCHAR2(20), active CHAR(1));
INSERT INTO staff VALUES (1, NULL, 'ann', 'Y');
INSERT INTO staff VALUES (2, 1, 'cid', 'Y');
INSERT INTO staff VALUES (3, 1, 'bob', 'Y');
INSERT INTO staff VALUES (4, 3, 'dan', 'Y');
INSERT INTO staff VALUES (5, 3, 'eve', 'N');
INSERT INTO staff VALUES (6, 7, 'fay', 'Y');
INSERT INTO staff VALUES (7, 6, 'gus', 'Y');
CREATE VIEW active_staff AS SELECT id, mgr, name FROM staff WHERE active = 'Y';
CREATE VIEW tree_from_with AS
WITH people AS (SELECT id, mgr, UPPER(name) AS name FROM staff WHERE active = 'Y')
SELECT LPAD(' ', 2 * (LEVEL - 1)) || name AS line, CONNECT_BY_ROOT name AS root,
       SYS_CONNECT_BY_PATH(name, '/') AS path
  FROM people
 START WITH mgr IS NULL
CONNECT BY PRIOR id = mgr
 ORDER SIBLINGS BY name;
CREATE VIEW tree_from_view AS
SELECT name, LEVEL AS lvl, CONNECT_BY_ISCYCLE AS cyc
  FROM active_staff
 START WITH id IN (1, 6)
CONNECT BY NOCYCLE PRIOR id = mgr
 ORDER SIBLINGS BY name;
CREATE VIEW tree_loop AS
SELECT name FROM active_staff START WITH id = 6 CONNECT BY PRIOR id = mgr;
"""


def test_hierarchies_over_a_with_query_and_a_view(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "staff", {"staff.sql": STAFF})
        assert conn.execute("SELECT line, root, path FROM tree_from_with").fetchall() == [
            ("ANN", "ANN", "/ANN"),
            ("  BOB", "ANN", "/ANN/BOB"),
            ("    DAN", "ANN", "/ANN/BOB/DAN"),
            ("  CID", "ANN", "/ANN/CID"),
        ]
        assert conn.execute("SELECT name, lvl, cyc FROM tree_from_view").fetchall() == [
            ("ann", 1, 0),
            ("bob", 2, 0),
            ("dan", 3, 0),
            ("cid", 2, 0),
            ("fay", 1, 0),
            ("gus", 2, 1),
        ]
        with pytest.raises(psycopg.Error, match="CONNECT BY loop in user data") as err:
            conn.execute("SELECT * FROM tree_loop").fetchall()
        assert err.value.sqlstate == "OS436"  # ORA-01436 (harness/ground_truth/oracle_errors.py)
