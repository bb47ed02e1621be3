"""One Oracle snippet per registered rule id, using the construct that rule converts.

tests/migrator/test_rule_registry.py converts each with and without its rule and checks that the
outputs differ. A snippet is a file of a schema export: statements end with `;`, PL/SQL units
with a `/` line."""

VIEW = "CREATE VIEW v AS SELECT {} AS x FROM t;\n"

EXAMPLES: dict[str, str] = {
    "expr.nvl": VIEW.format("NVL(a, 0)"),
    "expr.session_user": VIEW.format("USER"),
    "expr.nvl2": VIEW.format("NVL2(a + b, 1, 0)"),
    "expr.decode": VIEW.format("DECODE(a, b, 1, 0)"),
    "expr.empty_string_null": VIEW.format("''"),
    "expr.concat_null": VIEW.format("a || b"),
    "expr.implicit_to_text": (
        "CREATE TABLE t (n NUMBER, s VARCHAR2(10));\nCREATE VIEW v AS SELECT s || n AS x FROM t;\n"
    ),
    "expr.implicit_from_text": (
        "CREATE TABLE t (n NUMBER, s VARCHAR2(10));\nCREATE VIEW v AS SELECT n AS x FROM t WHERE s = n;\n"
    ),
    "expr.empty_result_null": VIEW.format("TRIM(a)"),
    "expr.replace": VIEW.format("REPLACE(a, 'x')"),
    "expr.to_number_format": VIEW.format("TO_NUMBER(a, '9,999.99')"),
    "expr.nls_numeric": VIEW.format("TO_CHAR(a, '9G990D00', 'NLS_NUMERIC_CHARACTERS='',.''')"),
    "expr.instr": VIEW.format("INSTR(a, 'x', 1, 2)"),
    "expr.substr": VIEW.format("SUBSTR(a, 0, 2)"),
    "expr.lpad": VIEW.format("LPAD(a, n)"),
    "expr.greatest_least": VIEW.format("GREATEST(a, b)"),
    "expr.listagg": VIEW.format("LISTAGG(a) WITHIN GROUP (ORDER BY a)"),
    "expr.to_number": VIEW.format("TO_NUMBER(a)"),
    "expr.division": VIEW.format("a / b"),
    "expr.raw_hex": VIEW.format("RAWTOHEX(a)"),
    "expr.lob_conversion": VIEW.format("TO_CLOB(a)"),
    "expr.sysdate": VIEW.format("SYSDATE"),
    "expr.date_arith": "CREATE TABLE t (d DATE);\nCREATE VIEW v AS SELECT d + 1 AS x FROM t;\n",
    "expr.trunc_date": "CREATE TABLE t (d DATE);\nCREATE VIEW v AS SELECT TRUNC(d) AS x FROM t;\n",
    "expr.round_date": "CREATE TABLE t (d DATE);\nCREATE VIEW v AS SELECT ROUND(d, 'MM') AS x FROM t;\n",
    "expr.add_months": VIEW.format("ADD_MONTHS(d, 1)"),
    "expr.months_between": VIEW.format("MONTHS_BETWEEN(d, e)"),
    "expr.last_day": VIEW.format("LAST_DAY(d)"),
    "expr.to_date": VIEW.format("TO_DATE('2020-01-01', 'YYYY-MM-DD')"),
    "expr.date_type": VIEW.format("CAST(a AS DATE)"),
    "expr.to_char": ("CREATE TABLE t (d DATE);\nCREATE VIEW v AS SELECT TO_CHAR(d, 'DD-MON-RR SSSSS') AS x FROM t;\n"),
    "expr.format_model": (
        "CREATE TABLE t (d DATE);\nCREATE VIEW v AS SELECT TO_CHAR(d, 'FMDay DD Month') AS x FROM t;\n"
    ),
    "expr.number_format_model": VIEW.format("TO_CHAR(255, 'XXXX')"),
    "expr.interval_arith": "CREATE TABLE t (d DATE);\nCREATE VIEW v AS SELECT d + INTERVAL '1' MONTH AS x FROM t;\n",
    "expr.supplied_package": VIEW.format("DBMS_LOB.GETLENGTH(a)"),
    "expr.interval_functions": VIEW.format("NUMTODSINTERVAL(a, 'HOUR')"),
    "expr.next_day": VIEW.format("NEXT_DAY(d, 'MONDAY')"),
    "expr.remainder": VIEW.format("REMAINDER(a, b)"),
    "expr.regexp_match": VIEW.format("REGEXP_SUBSTR(a, 'b.c')"),
    "expr.keep_dense_rank": "CREATE VIEW v AS SELECT MAX(a) KEEP (DENSE_RANK FIRST ORDER BY b) AS x FROM t;\n",
    "expr.ratio_to_report": VIEW.format("RATIO_TO_REPORT(a) OVER ()"),
    "expr.translate_using": VIEW.format("TRANSLATE(a USING NCHAR_CS)"),
    "expr.multiset": (
        "CREATE TYPE nl2 AS TABLE OF NUMBER;\n/\n"
        "CREATE FUNCTION g (p nl2) RETURN NUMBER IS BEGIN RETURN CARDINALITY(p); END;\n/\n"
    ),
    "expr.member_of": (
        "CREATE TYPE nl AS TABLE OF NUMBER;\n/\n"
        "CREATE FUNCTION f (p nl) RETURN NUMBER IS BEGIN IF 1 MEMBER OF p THEN RETURN 1; END IF; RETURN 0; END;\n/\n"
    ),
    "expr.grouping_id": "CREATE VIEW v AS SELECT a, GROUPING_ID(a) AS g FROM t GROUP BY ROLLUP (a);\n",
    "expr.char_semantics": "CREATE TABLE t (c CHAR(4));\nCREATE VIEW v AS SELECT LENGTH(c) AS x FROM t;\n",
    "expr.type_constructor": (
        "CREATE TYPE pt AS OBJECT (x NUMBER, y NUMBER);\n/\nCREATE VIEW v AS SELECT pt(1, 2) AS p FROM dual;\n"
    ),
    "ddl.object_ref": ("CREATE TYPE pt AS OBJECT (x NUMBER);\n/\nCREATE TYPE holder AS OBJECT (p REF pt);\n/\n"),
    "expr.object_attribute": (
        "CREATE TYPE pt AS OBJECT (x NUMBER, y NUMBER);\n/\n"
        "CREATE TABLE t (p pt);\nCREATE VIEW v AS SELECT a.p.x AS x FROM t a;\n"
    ),
    "expr.json_binary": (
        "CREATE TABLE t (d BLOB);\n"
        "CREATE VIEW v AS SELECT j.x FROM t a, JSON_TABLE(a.d, '$' COLUMNS (x NUMBER PATH '$.x')) j;\n"
    ),
    "expr.cast_multiset": (
        "CREATE TYPE nl AS TABLE OF NUMBER;\n/\n"
        "CREATE VIEW v AS SELECT CAST(MULTISET(SELECT n FROM t) AS nl) AS x FROM dual;\n"
    ),
    "expr.object_method": (
        "CREATE TYPE pt AS OBJECT (x NUMBER, MEMBER FUNCTION n RETURN NUMBER);\n/\n"
        "CREATE TYPE BODY pt AS MEMBER FUNCTION n RETURN NUMBER IS BEGIN RETURN x; END; END;\n/\n"
        "CREATE TABLE t (p pt);\nCREATE VIEW v AS SELECT a.p.n() AS x FROM t a;\n"
    ),
    "sql.table_collection": (
        "CREATE TYPE tl AS TABLE OF NUMBER;\n/\n"
        "CREATE OR REPLACE FUNCTION f RETURN tl PIPELINED IS BEGIN RETURN; END;\n/\n"
        "CREATE VIEW v AS SELECT COLUMN_VALUE AS x FROM TABLE(f());\n"
    ),
    "sql.pivot": (
        "CREATE TABLE t (a NUMBER, b VARCHAR2(10), c NUMBER);\n"
        "CREATE VIEW v AS SELECT * FROM t PIVOT (SUM(c) FOR b IN ('x' AS x));\n"
    ),
    "expr.sys_context": VIEW.format("SYS_CONTEXT('USERENV', 'SESSION_USER')"),
    "sql.dual": "CREATE VIEW v AS SELECT 1 AS x FROM dual;\n",
    "sql.derived_table_alias": "CREATE VIEW v AS SELECT a FROM (SELECT a FROM t);\n",
    "sql.dictionary_view": "CREATE VIEW v AS SELECT table_name FROM sys.user_tables;\n",
    "sql.outer_join_plus": "CREATE VIEW v AS SELECT t.a FROM t, s WHERE t.id = s.id(+);\n",
    "sql.sequence_nextval": "CREATE VIEW v AS SELECT s.NEXTVAL AS x FROM dual;\n",
    "sql.rownum": "CREATE VIEW v AS SELECT a FROM t WHERE ROWNUM <= 5;\n",
    "sql.connect_by": "CREATE VIEW v AS SELECT id FROM t START WITH parent IS NULL CONNECT BY PRIOR id = parent;\n",
    "sql.merge": (
        "MERGE INTO t USING s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.a = s.a WHERE s.a > 0 "
        "WHEN NOT MATCHED THEN INSERT (id, a) VALUES (s.id, s.a);\n"
    ),
    "sql.update_set_target": "CREATE OR REPLACE PROCEDURE p IS BEGIN UPDATE t x SET x.a = 1; END;\n/\n",
    "sql.for_update_of": (
        "CREATE OR REPLACE PROCEDURE p IS CURSOR c IS SELECT a FROM t FOR UPDATE OF a; BEGIN NULL; END;\n/\n"
    ),
    "ddl.view": "CREATE VIEW v AS SELECT a FROM t;\n",
    "ddl.materialized_view": "CREATE MATERIALIZED VIEW mv AS SELECT a FROM t;\n",
    "ddl.index": "CREATE INDEX ix ON t (a);\n",
    "ddl.sequence": "CREATE SEQUENCE s START WITH 1 INCREMENT BY 1 NOCACHE;\n",
    "ddl.synonym": "CREATE SYNONYM syn FOR t;\n",
    "ddl.current_schema": "ALTER SESSION SET CURRENT_SCHEMA = other;\n",
    "ddl.grant": "GRANT SELECT ON t TO bob;\n",
    "ddl.comment": "COMMENT ON TABLE t IS 'hello';\n",
    "ddl.object_type": "CREATE TYPE point_t AS OBJECT (x NUMBER, y NUMBER);\n/\n",
    "ddl.object_type_hierarchy": "CREATE TYPE base_t AS OBJECT (x NUMBER) NOT FINAL;\n/\n",
    "ddl.collection_type": "CREATE TYPE num_list AS TABLE OF NUMBER;\n/\n",
    "ddl.alter_table": "ALTER TABLE t ADD (c NUMBER(5));\n",
    "ddl.constraint_state": "ALTER TABLE t DISABLE CONSTRAINT t_fk;\n",
    "ddl.admin": "ALTER TRIGGER trg DISABLE;\n",
    "ddl.directory": "CREATE OR REPLACE DIRECTORY data_dir AS '/srv/data';\n",
    "ddl.partitioned_table": "CREATE TABLE t (a NUMBER) PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (10), PARTITION p2 VALUES LESS THAN (MAXVALUE));\n",
    "plsql.dynamic_ddl": "BEGIN EXECUTE IMMEDIATE 'CREATE TABLE t2 (a NUMBER)'; END;\n/\n",
    "ddl.identity": "CREATE TABLE t (id NUMBER GENERATED ALWAYS AS IDENTITY, a NUMBER);\n",
    "ddl.virtual_column": "CREATE TABLE t (a NUMBER, b NUMBER GENERATED ALWAYS AS (a * 2) VIRTUAL);\n",
    "ddl.default_sysdate": "CREATE TABLE t (a DATE DEFAULT CURRENT_DATE);\n",
    "ddl.temporary_table": "CREATE GLOBAL TEMPORARY TABLE tmp (a NUMBER) ON COMMIT DELETE ROWS;\n",
    "ddl.session_temporary_table": "CREATE GLOBAL TEMPORARY TABLE t (a NUMBER) ON COMMIT PRESERVE ROWS;\n",
    "ddl.physical_attributes": "CREATE TABLE t (a NUMBER) TABLESPACE users PCTFREE 10;\n",
    "ddl.number_type": "CREATE TABLE t (a NUMBER(10));\n",
    "ddl.number_precision": "CREATE TABLE t (a NUMBER(6));\n",
    "ddl.varchar2": "CREATE TABLE t (a VARCHAR2(30));\n",
    "ddl.char_type": "CREATE TABLE t (a CHAR(3));\n",
    "ddl.date_type": "CREATE TABLE t (a DATE);\n",
    "ddl.timestamp_type": "CREATE TABLE t (a TIMESTAMP WITH TIME ZONE);\n",
    "ddl.interval_type": "CREATE TABLE t (a INTERVAL DAY TO SECOND);\n",
    "ddl.lob_types": "CREATE TABLE t (a CLOB);\n",
    "ddl.binary_float": "CREATE TABLE t (a BINARY_FLOAT);\n",
    "ddl.rowid_type": "CREATE TABLE t (a ROWID);\n",
    "ddl.xml_type": "CREATE TABLE t (a XMLTYPE);\n",
    "ddl.boolean_type": ("CREATE OR REPLACE FUNCTION f RETURN NUMBER IS b BOOLEAN := TRUE; BEGIN RETURN 1; END;\n/\n"),
    "ddl.plsql_integer": (
        "CREATE OR REPLACE FUNCTION f RETURN NUMBER IS i PLS_INTEGER := 1; BEGIN RETURN i; END;\n/\n"
    ),
    "ddl.ref_cursor": (
        "CREATE OR REPLACE FUNCTION f RETURN SYS_REFCURSOR IS c SYS_REFCURSOR; BEGIN "
        "OPEN c FOR SELECT 1 FROM dual; RETURN c; END;\n"
        "/\n"
    ),
    "data.insert": "INSERT INTO t (a, b) VALUES (1, SYSDATE);\n",
    "data.insert_all": "INSERT ALL INTO t (a) VALUES (1) INTO t (a) VALUES (2) SELECT * FROM dual;\n",
    "plsql.function": "CREATE OR REPLACE FUNCTION f RETURN NUMBER IS BEGIN RETURN 1; END;\n/\n",
    "plsql.procedure": "CREATE OR REPLACE PROCEDURE p IS BEGIN NULL; END;\n/\n",
    "plsql.call_conversion": (
        "CREATE OR REPLACE FUNCTION f (p IN PLS_INTEGER) RETURN NUMBER IS BEGIN RETURN p; END;\n/\n"
        "CREATE OR REPLACE FUNCTION g RETURN NUMBER IS v NUMBER := 1; BEGIN RETURN f(v); END;\n/\n"
    ),
    "plsql.out_after_default": (
        "CREATE OR REPLACE PROCEDURE p (a IN NUMBER DEFAULT 1, b OUT NUMBER) IS BEGIN b := a; END;\n/\n"
    ),
    "plsql.function_out_params": (
        "CREATE OR REPLACE FUNCTION f (a IN NUMBER, b OUT NUMBER) RETURN NUMBER IS BEGIN b := a; RETURN a + 1; END;\n/\n"
        "CREATE OR REPLACE PROCEDURE p IS x NUMBER; y NUMBER; BEGIN y := f(1, x); END;\n/\n"
    ),
    "plsql.dynamic_bind_types": (
        "CREATE TABLE t (n NUMBER);\n"
        "CREATE OR REPLACE FUNCTION f (p IN VARCHAR2) RETURN NUMBER IS c NUMBER; BEGIN "
        "EXECUTE IMMEDIATE 'SELECT COUNT(*) FROM t WHERE n = :1' INTO c USING p; RETURN c; END;\n/\n"
    ),
    "plsql.dynamic_bind_literals": (
        "CREATE OR REPLACE FUNCTION f (p IN VARCHAR2, s IN VARCHAR2) RETURN NUMBER IS c NUMBER; BEGIN "
        "EXECUTE IMMEDIATE s INTO c USING p; RETURN c; END;\n/\n"
    ),
    "plsql.dynamic_returning": (
        "CREATE TABLE t (n NUMBER);\n"
        "CREATE OR REPLACE FUNCTION f (p IN NUMBER) RETURN NUMBER IS c NUMBER; BEGIN "
        "EXECUTE IMMEDIATE 'UPDATE t SET n = n + 1 WHERE n = :1 RETURNING n INTO :2' USING p RETURNING INTO c; "
        "RETURN c; END;\n/\n"
    ),
    "plsql.declaration_order": (
        "CREATE OR REPLACE FUNCTION f (p IN VARCHAR2) RETURN NUMBER IS n NUMBER := LENGTH(p); BEGIN RETURN n; END;\n/\n"
    ),
    "plsql.number_range": (
        "CREATE OR REPLACE FUNCTION f (p IN NUMBER) RETURN NUMBER IS n POSITIVE := p; BEGIN RETURN n; END;\n/\n"
    ),
    "plsql.package": (
        "CREATE OR REPLACE PACKAGE pk IS PROCEDURE p; END pk;\n"
        "/\n"
        "CREATE OR REPLACE PACKAGE BODY pk IS PROCEDURE p IS BEGIN NULL; END; END pk;\n"
        "/\n"
    ),
    "plsql.trigger": (
        "CREATE TABLE t (a NUMBER);\n"
        "CREATE OR REPLACE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW BEGIN :NEW.a := 1; END;\n"
        "/\n"
    ),
    "plsql.exceptions": (
        "CREATE OR REPLACE PROCEDURE p IS e EXCEPTION; BEGIN RAISE e; EXCEPTION WHEN e THEN NULL; END;\n/\n"
    ),
    "plsql.collections": (
        "CREATE OR REPLACE FUNCTION f RETURN NUMBER IS TYPE nt IS TABLE OF NUMBER; v nt := nt(1, 2); BEGIN "
        "RETURN v.COUNT; END;\n"
        "/\n"
    ),
    "plsql.dbms_output": "CREATE OR REPLACE PROCEDURE p IS BEGIN DBMS_OUTPUT.PUT_LINE('hi'); END;\n/\n",
    "plsql.package_cursor": (
        "CREATE OR REPLACE PACKAGE pk AS FUNCTION f RETURN NUMBER; END;\n/\n"
        "CREATE OR REPLACE PACKAGE BODY pk AS\n  CURSOR c IS SELECT 1 AS x FROM dual;\n"
        "  FUNCTION f RETURN NUMBER IS n NUMBER := 0; BEGIN FOR r IN c LOOP n := n + r.x; END LOOP; RETURN n; END;\n"
        "END;\n/\n"
    ),
    "plsql.xmltype": (
        "CREATE OR REPLACE FUNCTION f (p IN CLOB) RETURN VARCHAR2 IS\n  x XMLTYPE := XMLTYPE(p);\n"
        "BEGIN RETURN x.extract('/a/text()').getStringVal(); END;\n/\n"
    ),
    "plsql.raise_application_error": (
        "CREATE OR REPLACE PROCEDURE p IS BEGIN RAISE_APPLICATION_ERROR(-20001, 'bad'); END;\n/\n"
    ),
    "plsql.empty_string_params": "CREATE OR REPLACE PROCEDURE p (a IN VARCHAR2) IS BEGIN NULL; END;\n/\n",
    "plsql.nested_subprogram": (
        "CREATE OR REPLACE PROCEDURE p IS\n  PROCEDURE q IS BEGIN NULL; END q;\nBEGIN q; END;\n/\n"
    ),
    "plsql.nested_overload": (
        "CREATE OR REPLACE FUNCTION f (n IN NUMBER) RETURN VARCHAR2 IS\n"
        "  FUNCTION k (x DATE) RETURN VARCHAR2 IS BEGIN RETURN 'd'; END k;\n"
        "  FUNCTION k (x NUMBER) RETURN VARCHAR2 IS BEGIN RETURN 'n'; END k;\n"
        "BEGIN RETURN k(n); END;\n/\n"
    ),
    "plsql.conditional_compilation": (
        "CREATE OR REPLACE FUNCTION f RETURN VARCHAR2 IS\nBEGIN\n  $IF DBMS_DB_VERSION.VERSION >= 12 $THEN\n"
        "  RETURN 'new';\n  $ELSE\n  RETURN 'old';\n  $END\nEND;\n/\n"
    ),
    "plsql.record_field_anchor": (
        "CREATE OR REPLACE PROCEDURE p IS\n  TYPE t IS RECORD (n ext_rel.col%TYPE);\n  r t;\nBEGIN\n  NULL;\nEND;\n/\n"
    ),
    "plsql.goto": (
        "CREATE OR REPLACE PROCEDURE p (n IN NUMBER) IS\nBEGIN\n  IF n > 0 THEN GOTO done; END IF;\n"
        "  DBMS_OUTPUT.PUT_LINE('n');\n  <<done>>\n  NULL;\nEND;\n/\n"
    ),
    "plsql.where_current_of": (
        "CREATE OR REPLACE PROCEDURE p IS CURSOR c IS SELECT a FROM t FOR UPDATE;\n"
        "BEGIN FOR r IN c LOOP DELETE FROM t WHERE CURRENT OF c; END LOOP; END;\n/\n"
    ),
    "plsql.object_type_body": (
        "CREATE TYPE pt AS OBJECT (x NUMBER, MEMBER FUNCTION twice RETURN NUMBER);\n/\n"
        "CREATE OR REPLACE TYPE BODY pt AS MEMBER FUNCTION twice RETURN NUMBER IS BEGIN RETURN x * 2; END; END;\n/\n"
    ),
    "plsql.supplied_package": "CREATE OR REPLACE PROCEDURE p (c IN OUT CLOB) IS BEGIN DBMS_LOB.APPEND(c, 'x'); END;\n/\n",
    "plsql.autonomous": (
        "CREATE OR REPLACE PROCEDURE p IS PRAGMA AUTONOMOUS_TRANSACTION; BEGIN "
        "INSERT INTO t VALUES (1); COMMIT; END;\n"
        "/\n"
    ),
    "plsql.autonomous_output": (
        "CREATE OR REPLACE PROCEDURE p IS PRAGMA AUTONOMOUS_TRANSACTION; BEGIN "
        "DBMS_OUTPUT.PUT_LINE('logged'); COMMIT; END;\n"
        "/\n"
    ),
    "plsql.utplsql_expect": "CREATE OR REPLACE PROCEDURE p (n NUMBER) IS BEGIN ut.expect(n).to_equal(1); END;\n/\n",
}
