"""Execution tests: converted PL/SQL deployed on a real PostgreSQL, checked against Oracle semantics."""

from __future__ import annotations

import psycopg
import pytest

from migrator.convert.oracompat.runtime import RUNTIME_SQL
from migrator.convert.oracompat.support import SUPPORT_SQL
from tests.migrator.plsql_support import convert_all, split_sql

SETUP = """
CREATE SCHEMA IF NOT EXISTS s;
SET search_path = s, public;
CREATE TABLE s.emp (id integer PRIMARY KEY, name varchar(40), salary numeric(10,2), dept integer);
CREATE TABLE s.audit_log (id serial, msg text);
CREATE SEQUENCE s.emp_seq START 100;
INSERT INTO s.emp VALUES (1, 'Ann', 1000, 10), (2, 'Bob', 2000, 10), (3, 'Cid', 3000, 20);
"""


def deploy(dsn: str, oracle: str, types: str = "") -> psycopg.Connection:
    """Runtime + tables, then the converted units (schema-level types come as PostgreSQL DDL:
    they belong to the DDL converter)."""
    conn = psycopg.connect(dsn, autocommit=True)
    conn.execute(SUPPORT_SQL)  # the SQL rules' runtime (converted expressions may call it)
    conn.execute(RUNTIME_SQL)
    conn.execute(SETUP)
    if types:
        conn.execute(types)
    for unit, text, unconverted, _, _ in convert_all(split_sql(oracle)):
        assert not unconverted, (unit.name, unconverted, text)
        conn.execute(text)
    return conn


def notices(conn) -> list[str]:
    got: list[str] = []
    conn.add_notice_handler(lambda d: got.append(d.message_primary))
    return got


def scalar(conn, sql: str):
    return conn.execute(sql).fetchone()[0]


def test_reverse_loop_order_and_dbms_output(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE PROCEDURE countdown (p_from IN PLS_INTEGER) IS
BEGIN
  FOR i IN REVERSE 1 .. p_from LOOP
    DBMS_OUTPUT.PUT_LINE('i=' || i);
  END LOOP;
  DBMS_OUTPUT.PUT('a'); DBMS_OUTPUT.PUT('b'); DBMS_OUTPUT.NEW_LINE;
END;
/
""",
    )
    got = notices(conn)
    conn.execute("CALL s.countdown(3)")
    assert got == ["i=3", "i=2", "i=1", "ab"]


def test_select_into_strict_and_predefined_handlers(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE FUNCTION name_in_dept (p_dept IN NUMBER) RETURN VARCHAR2 IS
  v_name emp.name%TYPE;
BEGIN
  SELECT name INTO v_name FROM emp WHERE dept = p_dept;
  RETURN v_name;
EXCEPTION
  WHEN NO_DATA_FOUND THEN RETURN 'none';
  WHEN TOO_MANY_ROWS THEN RETURN 'many:' || SQLCODE;
END;
/
CREATE OR REPLACE FUNCTION safe_div (a IN NUMBER, b IN NUMBER) RETURN NUMBER IS
BEGIN
  RETURN a / b;
EXCEPTION WHEN ZERO_DIVIDE THEN RETURN -1;
END;
/
""",
    )
    assert scalar(conn, "SELECT s.name_in_dept(20)") == "Cid"
    assert scalar(conn, "SELECT s.name_in_dept(99)") == "none"
    assert scalar(conn, "SELECT s.name_in_dept(10)") == "many:-1422"
    assert scalar(conn, "SELECT s.safe_div(1, 0)") == -1


def test_raise_application_error_reaches_caller_and_user_exceptions(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE PROCEDURE check_salary (p_sal IN NUMBER) IS
  e_low EXCEPTION;
  e_app EXCEPTION;
  PRAGMA EXCEPTION_INIT(e_app, -20042);
BEGIN
  IF p_sal < 0 THEN
    RAISE_APPLICATION_ERROR(-20042, 'negative salary ' || p_sal);
  END IF;
  IF p_sal < 10 THEN RAISE e_low; END IF;
END;
/
CREATE OR REPLACE FUNCTION classify (p_sal IN NUMBER) RETURN VARCHAR2 IS
  e_app EXCEPTION;
  PRAGMA EXCEPTION_INIT(e_app, -20042);
BEGIN
  check_salary(p_sal);
  RETURN 'ok';
EXCEPTION
  WHEN e_app THEN RETURN 'app ' || SQLCODE || ' ' || SQLERRM;
  WHEN OTHERS THEN RETURN 'other ' || SQLCODE || ' ' || SQLERRM;
END;
/
""",
    )
    with pytest.raises(psycopg.Error) as info:
        conn.execute("CALL s.check_salary(-5)")
    assert info.value.sqlstate == "O2042"
    assert info.value.diag.message_primary == "negative salary -5"
    assert scalar(conn, "SELECT s.classify(-5)") == "app -20042 ORA-20042: negative salary -5"
    assert scalar(conn, "SELECT s.classify(5)") == "other 1 User-Defined Exception"
    assert scalar(conn, "SELECT s.classify(50)") == "ok"


def test_out_params_through_call_and_defaults(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE PROCEDURE get_emp (p_id IN NUMBER, p_name OUT VARCHAR2, p_sal IN OUT NUMBER,
                                     p_bonus IN NUMBER DEFAULT 10) IS
BEGIN
  SELECT name INTO p_name FROM emp WHERE id = p_id;
  p_sal := p_sal + p_bonus;
END;
/
CREATE OR REPLACE FUNCTION describe_emp (p_id IN NUMBER) RETURN VARCHAR2 IS
  v_name VARCHAR2(40);
  v_sal  NUMBER := 1;
BEGIN
  get_emp(p_id, v_name, v_sal);
  get_emp(p_id => p_id, p_name => v_name, p_sal => v_sal, p_bonus => 100);
  RETURN v_name || ':' || v_sal;
END;
/
""",
    )
    assert scalar(conn, "SELECT s.describe_emp(2)") == "Bob:111"


def test_cursors_attributes_and_for_loops(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE FUNCTION cursor_walk (p_dept IN NUMBER) RETURN VARCHAR2 IS
  CURSOR c_emp (cp_dept NUMBER) IS SELECT name, salary FROM emp WHERE dept = cp_dept ORDER BY id;
  v_name emp.name%TYPE;
  v_sal  emp.salary%TYPE;
  v_out  VARCHAR2(200) := '';
  v_total NUMBER := 0;
BEGIN
  OPEN c_emp(p_dept);
  LOOP
    FETCH c_emp INTO v_name, v_sal;
    EXIT WHEN c_emp%NOTFOUND;
    v_out := v_out || v_name || c_emp%ROWCOUNT;
  END LOOP;
  CLOSE c_emp;
  FOR r IN c_emp(p_dept) LOOP v_total := v_total + LENGTH(r.name); END LOOP;
  FOR r IN (SELECT id FROM emp WHERE dept = p_dept) LOOP v_total := v_total + r.id * 10; END LOOP;
  UPDATE emp SET salary = salary WHERE dept = p_dept;
  RETURN v_out || '/' || v_total || '/' || SQL%ROWCOUNT;
END;
/
""",
    )
    assert scalar(conn, "SELECT s.cursor_walk(10)") == "Ann1Bob2/36/2"


def test_trigger_fills_new_from_sequence(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE TRIGGER emp_bi
BEFORE INSERT OR UPDATE ON emp
FOR EACH ROW
WHEN (new.salary IS NOT NULL)
BEGIN
  IF INSERTING AND :NEW.id IS NULL THEN
    :NEW.id := emp_seq.NEXTVAL;
  END IF;
  IF UPDATING('salary') THEN
    :new.name := :old.name || '*';
  END IF;
END;
/
""",
    )
    conn.execute("INSERT INTO s.emp (name, salary, dept) VALUES ('Dee', 5, 30)")
    assert scalar(conn, "SELECT id FROM s.emp WHERE name = 'Dee'") == 100
    conn.execute("UPDATE s.emp SET salary = 6 WHERE id = 100")
    assert scalar(conn, "SELECT name FROM s.emp WHERE id = 100") == "Dee*"


def test_package_state_per_session_and_init_once(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE PACKAGE counter_pkg AS
  c_step CONSTANT PLS_INTEGER := 2;
  g_count PLS_INTEGER := 0;
  FUNCTION next_val RETURN PLS_INTEGER;
  FUNCTION inits RETURN PLS_INTEGER;
  FUNCTION bump_then_fail RETURN PLS_INTEGER;
END counter_pkg;
/
CREATE OR REPLACE PACKAGE BODY counter_pkg AS
  g_inits PLS_INTEGER := 0;
  FUNCTION next_val RETURN PLS_INTEGER IS
  BEGIN
    g_count := g_count + c_step;
    RETURN g_count;
  END next_val;
  FUNCTION inits RETURN PLS_INTEGER IS BEGIN RETURN g_inits; END inits;
  FUNCTION bump_then_fail RETURN PLS_INTEGER IS
    v NUMBER;
  BEGIN
    g_count := g_count + 100;
    v := 1 / 0;
    RETURN v;
  EXCEPTION WHEN ZERO_DIVIDE THEN
    RETURN g_count;
  END bump_then_fail;
BEGIN
  g_inits := g_inits + 1;
END counter_pkg;
/
CREATE OR REPLACE FUNCTION peek RETURN PLS_INTEGER IS
BEGIN
  RETURN counter_pkg.g_count * 10 + counter_pkg.c_step;
END;
/
""",
    )
    assert scalar(conn, "SELECT counter_pkg.next_val()") == 2
    assert scalar(conn, "SELECT counter_pkg.next_val()") == 4
    assert scalar(conn, "SELECT s.peek()") == 42
    assert scalar(conn, "SELECT counter_pkg.inits()") == 1
    other = psycopg.connect(pg_dsn, autocommit=True)
    other.execute("SET search_path = s, public")
    assert scalar(other, "SELECT counter_pkg.next_val()") == 2  # a new session starts fresh
    assert scalar(other, "SELECT counter_pkg.inits()") == 1
    assert scalar(conn, "SELECT counter_pkg.next_val()") == 6
    # Oracle package state is not transactional: the handler's block rollback keeps the +100
    assert scalar(conn, "SELECT counter_pkg.bump_then_fail()") == 106
    conn.autocommit = False
    conn.execute("SELECT counter_pkg.next_val()")
    conn.rollback()
    conn.autocommit = True
    assert scalar(conn, "SELECT counter_pkg.g_count()") == 108


def test_collections_assoc_and_nested(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE FUNCTION coll_demo RETURN VARCHAR2 IS
  TYPE num_list IS TABLE OF NUMBER;
  TYPE name_by_id IS TABLE OF VARCHAR2(40) INDEX BY PLS_INTEGER;
  v_list num_list := num_list(5, 6);
  v_names name_by_id;
  v_ids num_list;
  k PLS_INTEGER;
  v_out VARCHAR2(200);
BEGIN
  v_list.EXTEND;
  v_list(3) := 7;
  v_names(30) := 'c'; v_names(10) := 'a'; v_names(20) := 'b';
  v_names.DELETE(20);
  k := v_names.FIRST;
  WHILE k IS NOT NULL LOOP
    v_out := v_out || k || v_names(k);
    k := v_names.NEXT(k);
  END LOOP;
  SELECT id BULK COLLECT INTO v_ids FROM emp ORDER BY id;
  FORALL i IN 1 .. v_ids.COUNT
    UPDATE emp SET salary = salary + 1 WHERE id = v_ids(i);
  RETURN v_out || '|' || v_list.COUNT || v_list(3) || '|' || v_names.COUNT || '|' || v_ids.LAST
         || CASE WHEN v_names.EXISTS(20) THEN 'y' ELSE 'n' END;
END;
/
""",
    )
    assert scalar(conn, "SELECT s.coll_demo()") == "10a30c|37|2|3n"
    assert scalar(conn, "SELECT sum(salary) FROM s.emp") == 6003


def test_execute_immediate_with_binds(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE FUNCTION count_dept (p_dept IN NUMBER) RETURN NUMBER IS
  v_n NUMBER;
BEGIN
  EXECUTE IMMEDIATE 'SELECT COUNT(*) FROM emp WHERE dept = :d' INTO v_n USING p_dept;
  RETURN v_n;
END;
/
""",
    )
    assert scalar(conn, "SELECT s.count_dept(10)") == 2


def test_autonomous_insert_survives_rollback(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE PROCEDURE log_msg (p_msg IN VARCHAR2) IS
  PRAGMA AUTONOMOUS_TRANSACTION;
BEGIN
  INSERT INTO audit_log (msg) VALUES (p_msg);
  COMMIT;
END;
/
""",
    )
    conn.autocommit = False
    conn.execute("SET search_path = s, public")
    conn.execute("INSERT INTO s.emp VALUES (9, 'Tmp', 1, 1)")
    conn.execute("CALL s.log_msg('kept')")
    conn.rollback()
    conn.autocommit = True
    assert scalar(conn, "SELECT count(*) FROM s.emp WHERE id = 9") == 0
    assert scalar(conn, "SELECT string_agg(msg, ',') FROM s.audit_log") == "kept"


def test_autonomous_function_commits_its_insert_and_returns(pg_dsn):
    """An autonomous FUNCTION that inserts, COMMITs and returns the new id (a common logging
    idiom): the row survives the caller's rollback, the value reaches the caller."""
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE FUNCTION new_log (p_msg IN VARCHAR2) RETURN NUMBER IS
  PRAGMA AUTONOMOUS_TRANSACTION;
  l_n NUMBER;
BEGIN
  INSERT INTO audit_log (msg) VALUES (p_msg);
  COMMIT;
  SELECT COUNT(*) INTO l_n FROM audit_log;
  RETURN l_n;
END;
/
""",
    )
    conn.autocommit = False
    conn.execute("SET search_path = s, public")
    conn.execute("INSERT INTO s.emp VALUES (9, 'Tmp', 1, 1)")
    assert scalar(conn, "SELECT s.new_log('kept')") == 1
    conn.rollback()
    conn.autocommit = True
    assert scalar(conn, "SELECT count(*) FROM s.emp WHERE id = 9") == 0
    assert scalar(conn, "SELECT string_agg(msg, ',') FROM s.audit_log") == "kept"


def test_autonomous_output_reaches_the_caller(pg_dsn):
    """DBMS_OUTPUT inside an autonomous transaction goes to the caller's buffer (Oracle keeps one
    per session); lines printed before an error are kept, and the error reaches the caller."""
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE PROCEDURE log_msg (p_msg IN VARCHAR2) IS
  PRAGMA AUTONOMOUS_TRANSACTION;
BEGIN
  DBMS_OUTPUT.PUT_LINE('logging ' || p_msg);
  INSERT INTO audit_log (msg) VALUES (p_msg);
  IF p_msg = 'bad' THEN
    RAISE_APPLICATION_ERROR(-20001, 'refused ' || p_msg);
  END IF;
  COMMIT;
END;
/
""",
    )
    got = notices(conn)
    conn.execute("CALL s.log_msg('ok')")
    assert got == ["logging ok"]
    with pytest.raises(psycopg.Error) as err:
        conn.execute("CALL s.log_msg('bad')")
    assert "refused bad" in str(err.value) and err.value.sqlstate == "O2001"
    assert got == ["logging ok", "logging bad"]  # printed before the error: still printed
    assert scalar(conn, "SELECT string_agg(msg, ',') FROM s.audit_log") == "ok"


def test_nested_subprogram_lifted_and_default_before_out(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE PROCEDURE add_bonus (p_id IN NUMBER, p_pct IN NUMBER DEFAULT 10, p_new OUT NUMBER) IS
BEGIN
  UPDATE emp SET salary = salary * (1 + p_pct / 100) WHERE id = p_id RETURNING salary INTO p_new;
END;
/
CREATE OR REPLACE FUNCTION bonus_demo RETURN NUMBER IS
  v_new NUMBER;
  FUNCTION sq (p IN NUMBER) RETURN NUMBER IS
  BEGIN
    RETURN p * p;
  END sq;
BEGIN
  add_bonus(p_id => 1, p_new => v_new);
  RETURN v_new + sq(3);
END;
/
""",
    )
    assert scalar(conn, "SELECT s.bonus_demo()") == 1109


def test_sparse_nested_table_compacts_on_return(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE FUNCTION odd_ids RETURN VARCHAR2 IS
  TYPE id_list IS TABLE OF NUMBER;
  v id_list := id_list(1, 2, 3, 4);
  i PLS_INTEGER;
  s VARCHAR2(100);
BEGIN
  v.DELETE(2);
  v.DELETE(4);
  v.EXTEND;
  v(v.LAST) := 9;
  i := v.FIRST;
  WHILE i IS NOT NULL LOOP
    s := s || i || '=' || v(i) || ' ';
    i := v.NEXT(i);
  END LOOP;
  RETURN s || 'count ' || v.COUNT;
END;
/
""",
    )
    assert scalar(conn, "SELECT s.odd_ids()") == "1=1 3=3 5=9 count 3"


def test_object_type_methods_and_record_types(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE TYPE money_t AS OBJECT (amount NUMBER(15,2), currency CHAR(3),
  MEMBER FUNCTION plus (p_amount IN NUMBER) RETURN money_t)
/
CREATE OR REPLACE TYPE BODY money_t AS
  MEMBER FUNCTION plus (p_amount IN NUMBER) RETURN money_t IS
  BEGIN
    RETURN money_t(amount + NVL(p_amount, 0), SELF.currency);
  END plus;
END;
/
CREATE OR REPLACE FUNCTION money_demo RETURN VARCHAR2 IS
  TYPE pair_t IS RECORD (name VARCHAR2(10), qty PLS_INTEGER);
  v_pair pair_t;
  v_m money_t := money_t(10, 'EUR');
BEGIN
  v_pair.name := 'x';
  v_pair.qty := 2;
  v_m := v_m.plus(5);
  RETURN v_pair.name || v_pair.qty || ':' || v_m.currency || TO_CHAR(v_m.amount);
END;
/
""",
        types="CREATE TYPE s.money_t AS (amount numeric(15,2), currency char(3));",
    )
    # Oracle's TO_CHAR(NUMBER) without a format prints the minimal form: 15, not 15.00.
    assert scalar(conn, "SELECT s.money_demo()") == "x2:EUR15"


def test_refcursor_function_and_statement_trigger(pg_dsn):
    conn = deploy(
        pg_dsn,
        """
CREATE OR REPLACE FUNCTION emps_of (p_dept IN NUMBER) RETURN SYS_REFCURSOR IS
  v_rc SYS_REFCURSOR;
BEGIN
  OPEN v_rc FOR SELECT name FROM emp WHERE dept = p_dept ORDER BY id;
  RETURN v_rc;
END;
/
CREATE OR REPLACE TRIGGER emp_stmt_trg
AFTER DELETE ON emp
BEGIN
  INSERT INTO audit_log (msg) VALUES ('deleted');
END;
/
""",
    )
    conn.autocommit = False
    name = scalar(conn, "SELECT s.emps_of(10)")
    assert [r[0] for r in conn.execute(f'FETCH ALL FROM "{name}"')] == ["Ann", "Bob"]
    conn.commit()
    conn.autocommit = True
    conn.execute("DELETE FROM s.emp WHERE dept = 10")
    assert scalar(conn, "SELECT count(*) FROM s.audit_log") == 1
