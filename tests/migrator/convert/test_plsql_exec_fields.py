"""Execution tests (continued): UPDATING('COL'), typed record fields, collections of records."""

from __future__ import annotations

from tests.migrator.convert.test_plsql_exec import deploy, notices, scalar

UPDATING_TRIGGERS = """
CREATE OR REPLACE TRIGGER emp_row_aud
AFTER INSERT OR UPDATE ON emp
FOR EACH ROW
BEGIN
  IF UPDATING('SALARY') THEN
    INSERT INTO audit_log (msg) VALUES ('row salary ' || :NEW.id);
  ELSIF UPDATING THEN
    INSERT INTO audit_log (msg) VALUES ('row other ' || :NEW.id);
  END IF;
END;
/
CREATE OR REPLACE TRIGGER emp_before_mark
BEFORE UPDATE ON emp
FOR EACH ROW
BEGIN
  IF UPDATING('NAME') THEN
    :NEW.name := :NEW.name || '!';
  END IF;
END;
/
CREATE OR REPLACE TRIGGER emp_stmt_aud
AFTER UPDATE ON emp
BEGIN
  IF UPDATING('DEPT') THEN
    INSERT INTO audit_log (msg) VALUES ('stmt dept');
  ELSE
    INSERT INTO audit_log (msg) VALUES ('stmt other');
  END IF;
END;
/
"""


def test_updating_column_means_listed_in_set_not_changed(pg_dsn):
    """Oracle: UPDATING('COL') is true when COL is a SET target, even if the value is unchanged."""
    conn = deploy(pg_dsn, UPDATING_TRIGGERS)

    def log(sql):
        conn.execute("TRUNCATE s.audit_log")
        conn.execute(sql)
        return [r[0] for r in conn.execute("SELECT msg FROM s.audit_log ORDER BY id")]

    assert log("UPDATE s.emp SET salary = salary WHERE id IN (1, 2)") == [
        "row salary 1",
        "row salary 2",
        "stmt other",
    ]  # same value, every row
    assert log("UPDATE s.emp SET dept = dept WHERE id = 1") == ["row other 1", "stmt dept"]
    assert log("UPDATE s.emp SET dept = 99 WHERE id = 0") == ["stmt dept"]  # statement level, no rows
    assert log("UPDATE s.emp SET salary = 5, dept = 20 WHERE id = 3") == ["row salary 3", "stmt dept"]
    # the flag of one statement never leaks into the next
    assert log("UPDATE s.emp SET dept = dept WHERE id = 3") == ["row other 3", "stmt dept"]
    conn.execute("UPDATE s.emp SET name = name WHERE id = 1")
    conn.execute("UPDATE s.emp SET salary = salary WHERE id = 1")  # BEFORE trigger: name not listed
    assert scalar(conn, "SELECT name FROM s.emp WHERE id = 1") == "Ann!"


def test_record_field_dates_and_bulk_collect_of_records(pg_dsn):
    """rec.field of a DATE column does date arithmetic (days as a number); BULK COLLECT of
    records into an INDEX BY table keeps rows whole even when a column is NULL."""
    conn = deploy(
        pg_dsn,
        """
CREATE TABLE emp_h (id NUMBER(9) PRIMARY KEY, name VARCHAR2(40), hired DATE);
CREATE OR REPLACE PROCEDURE fields_demo IS
  CURSOR c_emp IS SELECT id, name, hired FROM emp_h ORDER BY id;
  v_row c_emp%ROWTYPE;
  v_tab emp_h%ROWTYPE;
  TYPE rec_t IS RECORD (id NUMBER, name VARCHAR2(40));
  TYPE list_t IS TABLE OF rec_t INDEX BY PLS_INTEGER;
  v_list list_t;
BEGIN
  OPEN c_emp;
  FETCH c_emp INTO v_row;
  CLOSE c_emp;
  DECLARE
    v_days NUMBER := TRUNC(v_row.hired + 1) - TRUNC(v_row.hired);
  BEGIN
    DBMS_OUTPUT.PUT_LINE('days=' || v_days);
  END;
  SELECT * INTO v_tab FROM emp_h WHERE id = 2;
  DBMS_OUTPUT.PUT_LINE('tab=' || (TRUNC(v_tab.hired) - TRUNC(v_row.hired)));
  FOR r IN c_emp LOOP
    DBMS_OUTPUT.PUT_LINE('loop=' || (r.hired + 1 - r.hired));
  END LOOP;
  SELECT id, name BULK COLLECT INTO v_list FROM emp_h ORDER BY id;
  DBMS_OUTPUT.PUT_LINE('n=' || v_list.COUNT || ' last=' || v_list(v_list.LAST).id);
END;
/
""",
        types="""
CREATE TABLE s.emp_h (id integer PRIMARY KEY, name varchar(40), hired timestamp(0));
INSERT INTO s.emp_h VALUES (1, 'Ann', '2020-01-01 10:00'), (2, NULL, '2020-01-11 23:00');
""",
    )
    got = notices(conn)
    conn.execute("CALL s.fields_demo()")
    assert got == ["days=1", "tab=10", "loop=1", "loop=1", "n=2 last=2"]


def test_out_arguments_that_are_not_plain_variables(pg_dsn):
    """IN OUT / OUT arguments that are collection elements or package variables are written back."""
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE PACKAGE acc_pkg AS
  g_total NUMBER := 5;
  PROCEDURE add_to (p_amount IN NUMBER, p_running IN OUT NUMBER);
  PROCEDURE give (p_out OUT NUMBER);
  PROCEDURE run;
END acc_pkg;
/
CREATE OR REPLACE PACKAGE BODY acc_pkg AS
  PROCEDURE add_to (p_amount IN NUMBER, p_running IN OUT NUMBER) IS
  BEGIN
    p_running := p_running + p_amount;
  END add_to;
  PROCEDURE give (p_out OUT NUMBER) IS BEGIN p_out := 42; END give;
  PROCEDURE run IS
    TYPE totals_t IS TABLE OF NUMBER INDEX BY PLS_INTEGER;
    v_totals totals_t;
  BEGIN
    v_totals(7) := 1;
    add_to(10, v_totals(7));
    add_to(p_amount => 2, p_running => v_totals(7));
    add_to(3, g_total);
    give(v_totals(8));
    DBMS_OUTPUT.PUT_LINE(v_totals(7) || ' ' || g_total || ' ' || v_totals(8));
  END run;
END acc_pkg;
/
""",
    )
    got = notices(conn)
    conn.execute("CALL acc_pkg.run()")
    assert got == ["13 8 42"]


def test_updating_column_outside_the_trigger_column_list(pg_dsn):
    """UPDATE OF salary trigger testing UPDATING('NAME'): a name-only UPDATE (which does not fire
    it) must not leave "name updated" behind for the next statement of the transaction."""
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE TRIGGER emp_sal_aud
AFTER UPDATE OF salary ON emp
FOR EACH ROW
BEGIN
  INSERT INTO audit_log (msg) VALUES (CASE WHEN UPDATING('NAME') THEN 'with name' ELSE 'salary only' END);
END;
/
""",
    )
    with conn.transaction():
        conn.execute("UPDATE s.emp SET name = name WHERE id = 1")
        conn.execute("UPDATE s.emp SET salary = salary WHERE id = 1")
        conn.execute("UPDATE s.emp SET salary = salary, name = name WHERE id = 2")
    assert [r[0] for r in conn.execute("SELECT msg FROM s.audit_log ORDER BY id")] == ["salary only", "with name"]
