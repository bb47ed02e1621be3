"""The data dictionary on a real PostgreSQL: converted routines that query USER_/ALL_/DBA_ views
(does this column exist, list my tables, my constraints, my package's arguments, a record anchored
on `user_arguments.object_name%TYPE`) get what Oracle would give for the converted schema: Oracle's
column names, upper-case names, Oracle's data type spellings, NULLABLE 'Y'/'N', STATUS 'VALID'.
Fixture units written from the Oracle Database Reference (static data dictionary views)."""

from __future__ import annotations

import psycopg

from tests.migrator.convert.test_plsql_exec_types import deploy_schema

TABLES = """
CREATE TABLE dd_dept (dept_id NUMBER(6) PRIMARY KEY, dname VARCHAR2(30) NOT NULL);
CREATE TABLE dd_emp (
  emp_id NUMBER(10) CONSTRAINT dd_emp_pk PRIMARY KEY,
  ename VARCHAR2(40) NOT NULL,
  salary NUMBER(8,2),
  hired DATE,
  dept_id NUMBER(6) CONSTRAINT dd_emp_dept_fk REFERENCES dd_dept (dept_id),
  CONSTRAINT dd_emp_sal_ck CHECK (salary > 0)
);
CREATE INDEX dd_emp_name_ix ON dd_emp (ename);
CREATE SEQUENCE dd_emp_seq START WITH 100 INCREMENT BY 5;
COMMENT ON TABLE dd_emp IS 'employees';
COMMENT ON COLUMN dd_emp.ename IS 'the name';
CREATE OR REPLACE VIEW dd_emp_v AS SELECT e.emp_id, e.ename, d.dname FROM dd_emp e JOIN dd_dept d ON d.dept_id = e.dept_id;
CREATE OR REPLACE TYPE dd_point_t AS OBJECT (x NUMBER, y NUMBER);
/
CREATE OR REPLACE TRIGGER dd_emp_bi BEFORE INSERT ON dd_emp FOR EACH ROW
BEGIN
  IF :NEW.emp_id IS NULL THEN :NEW.emp_id := dd_emp_seq.NEXTVAL; END IF;
END;
/
"""

PKG = """
CREATE OR REPLACE PACKAGE dd_meta AS
  TYPE t_arg IS RECORD (name user_arguments.object_name%TYPE, pos NUMBER);
  FUNCTION column_exists (p_table IN VARCHAR2, p_column IN VARCHAR2) RETURN BOOLEAN;
  FUNCTION has_column (p_table IN VARCHAR2, p_column IN VARCHAR2) RETURN VARCHAR2;
  FUNCTION my_tables RETURN VARCHAR2;
  FUNCTION columns_of (p_table IN VARCHAR2) RETURN VARCHAR2;
  FUNCTION constraints_of (p_table IN VARCHAR2) RETURN VARCHAR2;
  FUNCTION args_of (p_member IN VARCHAR2) RETURN VARCHAR2;
  FUNCTION object_types RETURN VARCHAR2;
  FUNCTION seq_info RETURN VARCHAR2;
  FUNCTION sys_count RETURN NUMBER;
END dd_meta;
/
CREATE OR REPLACE PACKAGE BODY dd_meta AS
  FUNCTION column_exists (p_table IN VARCHAR2, p_column IN VARCHAR2) RETURN BOOLEAN IS
    l_n PLS_INTEGER;
  BEGIN
    SELECT COUNT(*) INTO l_n FROM user_tab_columns
     WHERE table_name = UPPER(p_table) AND column_name = UPPER(p_column);
    RETURN l_n > 0;
  END column_exists;

  FUNCTION has_column (p_table IN VARCHAR2, p_column IN VARCHAR2) RETURN VARCHAR2 IS
  BEGIN
    IF column_exists(p_table, p_column) THEN RETURN 'Y'; END IF;
    RETURN 'N';
  END has_column;

  FUNCTION my_tables RETURN VARCHAR2 IS
    l_out VARCHAR2(400);
  BEGIN
    FOR r IN (SELECT table_name, status FROM user_tables ORDER BY table_name) LOOP
      l_out := l_out || r.table_name || ':' || r.status || ';';
    END LOOP;
    RETURN l_out;
  END my_tables;

  FUNCTION columns_of (p_table IN VARCHAR2) RETURN VARCHAR2 IS
    l_out VARCHAR2(1000);
  BEGIN
    FOR r IN (SELECT column_name, data_type, data_precision, data_scale, data_length, nullable
                FROM user_tab_columns WHERE table_name = p_table ORDER BY column_id) LOOP
      l_out := l_out || r.column_name || ' ' || r.data_type || '(' || NVL(r.data_precision, r.data_length)
               || ',' || r.data_scale || ')' || r.nullable || ';';
    END LOOP;
    RETURN l_out;
  END columns_of;

  FUNCTION constraints_of (p_table IN VARCHAR2) RETURN VARCHAR2 IS
    l_out VARCHAR2(1000);
  BEGIN
    FOR r IN (SELECT c.constraint_name, c.constraint_type, c.r_constraint_name, cc.column_name
                FROM user_constraints c JOIN user_cons_columns cc ON cc.constraint_name = c.constraint_name
               WHERE c.table_name = p_table AND c.constraint_type IN ('P', 'R', 'C')
                 AND c.constraint_name LIKE 'DD%'
               ORDER BY c.constraint_name) LOOP
      l_out := l_out || r.constraint_name || '/' || r.constraint_type || '/' || r.column_name
               || '/' || r.r_constraint_name || ';';
    END LOOP;
    RETURN l_out;
  END constraints_of;

  FUNCTION args_of (p_member IN VARCHAR2) RETURN VARCHAR2 IS
    l_arg t_arg;
    l_out VARCHAR2(1000);
  BEGIN
    FOR r IN (SELECT argument_name, position, data_type, in_out FROM user_arguments
               WHERE package_name = 'DD_META' AND object_name = p_member ORDER BY position) LOOP
      l_arg.name := NVL(r.argument_name, 'RETURN');
      l_arg.pos := r.position;
      l_out := l_out || l_arg.pos || '=' || l_arg.name || ' ' || r.in_out || ' ' || r.data_type || ';';
    END LOOP;
    RETURN l_out;
  END args_of;

  FUNCTION object_types RETURN VARCHAR2 IS
    l_out VARCHAR2(1000);
  BEGIN
    FOR r IN (SELECT object_name, object_type, status FROM user_objects
               WHERE object_name LIKE 'DD%' AND object_type <> 'INDEX'
               ORDER BY object_name, object_type) LOOP
      l_out := l_out || r.object_name || ' ' || r.object_type || ' ' || r.status || ';';
    END LOOP;
    RETURN l_out;
  END object_types;

  FUNCTION seq_info RETURN VARCHAR2 IS
    l_inc user_sequences.increment_by%TYPE;
    l_name all_sequences.sequence_name%TYPE;
  BEGIN
    SELECT sequence_name, increment_by INTO l_name, l_inc FROM all_sequences
     WHERE sequence_name = 'DD_EMP_SEQ';
    RETURN l_name || '+' || l_inc;
  END seq_info;

  FUNCTION sys_count RETURN NUMBER IS
    l_n NUMBER;
  BEGIN
    SELECT COUNT(*) INTO l_n FROM sys.dba_tables WHERE table_name LIKE 'DD%';
    RETURN l_n;
  END sys_count;
END dd_meta;
/
"""

ANCHORS = """
CREATE OR REPLACE FUNCTION dd_anchors RETURN VARCHAR2 IS
  l_row user_tables%ROWTYPE;
  l_obj sys.all_objects.object_name%TYPE;
  l_row2 sys.user_objects%ROWTYPE;
  CURSOR c IS SELECT * FROM sys.user_tab_columns WHERE table_name = 'DD_EMP' ORDER BY column_id;
  l_c c%ROWTYPE;
BEGIN
  SELECT * INTO l_row FROM user_tables WHERE table_name = 'DD_DEPT';
  SELECT object_name INTO l_obj FROM sys.all_objects WHERE object_name = 'DD_ANCHORS';
  SELECT * INTO l_row2 FROM sys.user_objects WHERE object_name = 'DD_ANCHORS';
  OPEN c; FETCH c INTO l_c; CLOSE c;
  RETURN l_row.table_name || ' ' || l_obj || ' ' || l_row2.object_type || ' ' || l_c.column_name;
END;
/
"""

FILES = {"tables.sql": TABLES, "meta.pkg": PKG, "anchors.sql": ANCHORS}


def test_dictionary_views_from_converted_code(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "dd", FILES)

        def one(sql: str):
            return conn.execute(sql).fetchone()[0]

        assert one("SELECT dd_meta.has_column('dd_emp', 'salary')") == "Y"
        assert one("SELECT dd_meta.has_column('dd_emp', 'bonus')") == "N"
        assert one("SELECT dd_meta.my_tables()") == "DD_DEPT:VALID;DD_EMP:VALID;"
        # NUMBER(p) is numeric(p) (rule ddl.number_precision): DATA_PRECISION p, scale 0, as in Oracle
        assert one("SELECT dd_meta.columns_of('DD_EMP')") == (
            "EMP_ID NUMBER(10,0)N;ENAME VARCHAR2(40,)N;SALARY NUMBER(8,2)Y;HIRED DATE(7,)Y;DEPT_ID NUMBER(6,0)Y;"
        )
        cons = one("SELECT dd_meta.constraints_of('DD_EMP')")
        assert "DD_EMP_PK/P/EMP_ID/;" in cons
        assert "DD_EMP_DEPT_FK/R/DEPT_ID/DD_DEPT_PKEY;" in cons or "DD_EMP_DEPT_FK/R/DEPT_ID/" in cons
        assert "DD_EMP_SAL_CK/C/SALARY/;" in cons
        assert one("SELECT dd_meta.args_of('HAS_COLUMN')") == (
            "0=RETURN OUT VARCHAR2;1=P_TABLE IN VARCHAR2;2=P_COLUMN IN VARCHAR2;"
        )
        objects = one("SELECT dd_meta.object_types()")
        for expected in (
            "DD_DEPT TABLE VALID;",
            "DD_EMP TABLE VALID;",
            "DD_EMP_SEQ SEQUENCE VALID;",
            "DD_META PACKAGE VALID;",
            "DD_META PACKAGE BODY VALID;",
        ):
            assert expected in objects, objects
        assert one("SELECT dd_meta.seq_info()") == "DD_EMP_SEQ+5"
        assert one("SELECT dd_meta.sys_count()") == 2
        # %ROWTYPE and %TYPE anchored on dictionary views, with and without SYS.
        assert one("SELECT dd_anchors()") == "DD_DEPT DD_ANCHORS FUNCTION EMP_ID"
        # the views themselves, as SQL reads them
        assert conn.execute("SELECT comments FROM user_tab_comments WHERE table_name = 'DD_EMP'").fetchall() == [
            ("employees",)
        ]
        assert conn.execute(
            "SELECT column_name, comments FROM user_col_comments WHERE table_name = 'DD_EMP' AND comments IS NOT NULL"
        ).fetchall() == [("ENAME", "the name")]
        assert conn.execute(
            "SELECT index_name, uniqueness FROM user_indexes WHERE table_name = 'DD_EMP' ORDER BY 1"
        ).fetchall() == [("DD_EMP_NAME_IX", "NONUNIQUE"), ("DD_EMP_PK", "UNIQUE")]
        assert conn.execute(
            "SELECT column_name, column_position FROM user_ind_columns WHERE index_name = 'DD_EMP_NAME_IX'"
        ).fetchall() == [("ENAME", 1)]
        assert conn.execute(
            "SELECT object_name, procedure_name FROM user_procedures WHERE object_name = 'DD_META'"
            " AND procedure_name LIKE 'C%' ORDER BY 2"
        ).fetchall() == [("DD_META", "COLUMNS_OF"), ("DD_META", "COLUMN_EXISTS"), ("DD_META", "CONSTRAINTS_OF")]
        assert one("SELECT count(*) FROM user_source WHERE name = 'DD_META' AND type = 'PACKAGE BODY'") > 10
        assert one("SELECT owner FROM all_tables WHERE table_name = 'DD_EMP'") == "DD"
        assert conn.execute(
            "SELECT trigger_type, triggering_event, table_name, status FROM user_triggers WHERE trigger_name = 'DD_EMP_BI'"
        ).fetchall() == [("BEFORE EACH ROW", "INSERT", "DD_EMP", "ENABLED")]
        assert one("SELECT count(*) FROM user_views WHERE view_name = 'DD_EMP_V' AND text LIKE '%dd_dept%'") == 1
        assert conn.execute(
            "SELECT referenced_name, referenced_type FROM user_dependencies WHERE name = 'DD_EMP_V' ORDER BY 1"
        ).fetchall() == [("DD_DEPT", "TABLE"), ("DD_EMP", "TABLE")]
        assert conn.execute(
            "SELECT typecode, attributes FROM user_types WHERE type_name = 'DD_POINT_T'"
        ).fetchall() == [("OBJECT", 2)]
        assert one("SELECT count(*) FROM user_synonyms") == 0  # PostgreSQL has no synonyms: none to show
        assert one("SELECT count(*) FROM dba_objects WHERE object_name = 'DD_EMP'") >= 1
