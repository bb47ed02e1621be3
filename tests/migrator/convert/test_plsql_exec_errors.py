"""Execution tests: SQLERRM of constraint errors names the constraint / column with its owner, as
Oracle does (``ORA-02291: integrity constraint (OWNER.NAME) violated - parent key not found``)."""

from __future__ import annotations

from harness.ground_truth.oracle_errors import object_sqlerrm
from tests.migrator.convert.test_plsql_exec import deploy, scalar

TABLES = """
CREATE TABLE s.dept (id integer CONSTRAINT dept_pk PRIMARY KEY, name varchar(20) NOT NULL);
CREATE TABLE s.staff (id integer CONSTRAINT staff_pk PRIMARY KEY,
                      dept integer CONSTRAINT staff_dept_fk REFERENCES s.dept (id),
                      pay numeric CONSTRAINT staff_pay_ck CHECK (pay > 0));
INSERT INTO s.dept VALUES (10, 'Sales');
INSERT INTO s.staff VALUES (1, 10, 100);
"""

UNITS = """
CREATE OR REPLACE FUNCTION try_sql (p_case IN VARCHAR2) RETURN VARCHAR2 IS
BEGIN
  IF p_case = 'fk' THEN
    INSERT INTO staff (id, dept, pay) VALUES (2, 99, 100);
  ELSIF p_case = 'child' THEN
    DELETE FROM dept WHERE id = 10;
  ELSIF p_case = 'unique' THEN
    INSERT INTO staff (id, dept, pay) VALUES (1, 10, 100);
  ELSIF p_case = 'check' THEN
    UPDATE staff SET pay = -1 WHERE id = 1;
  ELSIF p_case = 'null' THEN
    INSERT INTO dept (id, name) VALUES (20, NULL);
  ELSE
    RETURN 1 / 0;
  END IF;
  RETURN 'ok';
EXCEPTION
  WHEN OTHERS THEN
    RETURN SQLCODE || '|' || SQLERRM;
END;
/
CREATE OR REPLACE FUNCTION try_dup RETURN VARCHAR2 IS
BEGIN
  INSERT INTO staff (id, dept, pay) VALUES (1, 10, 100);
  RETURN 'ok';
EXCEPTION
  WHEN NO_DATA_FOUND THEN RETURN 'none';
  WHEN DUP_VAL_ON_INDEX THEN
    BEGIN
      RETURN SQLERRM(SQLCODE);
    END;
END;
/
CREATE OR REPLACE PROCEDURE hire (p_dept IN NUMBER) IS
BEGIN
  INSERT INTO staff (id, dept, pay) VALUES (3, p_dept, 100);
EXCEPTION
  WHEN OTHERS THEN
    RAISE_APPLICATION_ERROR(-20032, 'Unknown department: ' || SQLERRM);
END;
/
"""


def test_sqlerrm_names_constraint_with_owner(pg_dsn):
    conn = deploy(pg_dsn, UNITS, types=TABLES)
    fk = "ORA-02291: integrity constraint (S.STAFF_DEPT_FK) violated - parent key not found"
    assert scalar(conn, "SELECT s.try_sql('fk')") == "-2291|" + fk
    assert scalar(conn, "SELECT s.try_sql('child')").endswith(
        "|ORA-02292: integrity constraint (S.STAFF_DEPT_FK) violated - child record found"
    )
    assert scalar(conn, "SELECT s.try_sql('unique')") == "-1|ORA-00001: unique constraint (S.STAFF_PK) violated"
    assert scalar(conn, "SELECT s.try_sql('check')") == "-2290|ORA-02290: check constraint (S.STAFF_PAY_CK) violated"
    assert scalar(conn, "SELECT s.try_sql('null')") == '-1400|ORA-01400: cannot insert NULL into ("S"."DEPT"."NAME")'
    assert scalar(conn, "SELECT s.try_sql('zero')") == "-1476|ORA-01476: divisor is equal to zero"
    # SQLERRM(SQLCODE) inside a nested block of a handler: the same message
    assert scalar(conn, "SELECT s.try_dup()") == "ORA-00001: unique constraint (S.STAFF_PK) violated"
    # the message reaches the caller through RAISE_APPLICATION_ERROR (scenario hire_employee)
    try:
        conn.execute("CALL s.hire(99)")
        raise AssertionError("no error")
    except Exception as exc:  # noqa: BLE001
        assert getattr(exc, "sqlstate", None) == "O2032"
        assert str(exc).splitlines()[0] == "Unknown department: " + fk
    # the table's Python helper gives the same texts
    assert object_sqlerrm(-2291, "s", constraint="staff_dept_fk") == fk
    assert (
        object_sqlerrm(-1400, "s", table="dept", column="name")
        == 'ORA-01400: cannot insert NULL into ("S"."DEPT"."NAME")'
    )
    assert object_sqlerrm(-1476, "s") is None


def test_handler_without_constraint_errors_fetches_no_diagnostics():
    from tests.migrator.plsql_support import convert_all, split_sql

    ((_, text, _, _, _),) = convert_all(
        split_sql("""
CREATE OR REPLACE FUNCTION f RETURN VARCHAR2 IS
BEGIN
  RETURN 1 / 0;
EXCEPTION WHEN ZERO_DIVIDE THEN RETURN SQLERRM;
END;
/
""")
    )
    assert "GET STACKED DIAGNOSTICS" not in text
    assert "oracompat.sqlerrm(SQLSTATE, SQLERRM)" in text
