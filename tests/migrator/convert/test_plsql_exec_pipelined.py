"""TABLE() over collection-returning functions and PIPELINED functions in every position Oracle
allows them, run on a real PostgreSQL: the FROM of a query in PL/SQL and in a view, joined with a
table, in a cursor FOR loop, an explicit cursor, OPEN FOR, SELECT INTO, nested in a subquery, with
a table alias and column aliases, COLUMN_VALUE of a scalar collection; package-level PIPELINED
functions returning a package-level collection of records, schema-level ones returning a nested
table of an object type; and a PIPELINED function whose collection type is not in the export,
reported with the type's name. Fixture units written from the PL/SQL language reference."""

from __future__ import annotations

import psycopg

from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.reader import read_schema_dir
from tests.migrator.convert.test_plsql_exec_types import deploy_schema

TYPES = """
CREATE TABLE pl_items (id NUMBER(10) PRIMARY KEY, label VARCHAR2(20));
INSERT INTO pl_items VALUES (1, 'one');
INSERT INTO pl_items VALUES (2, 'two');
INSERT INTO pl_items VALUES (3, 'three');
CREATE OR REPLACE TYPE pl_pair_t AS OBJECT (k NUMBER, v VARCHAR2(30));
/
CREATE OR REPLACE TYPE pl_pair_tab AS TABLE OF pl_pair_t;
/
CREATE OR REPLACE TYPE pl_num_tab AS TABLE OF NUMBER;
/
"""

GEN = """
CREATE OR REPLACE PACKAGE pl_gen AS
  TYPE t_row IS RECORD (id NUMBER, name VARCHAR2(30));
  TYPE t_rows IS TABLE OF t_row;
  TYPE t_nums IS TABLE OF NUMBER;
  FUNCTION rows_of (p_n IN NUMBER) RETURN t_rows PIPELINED;
  FUNCTION nums (p_from IN NUMBER, p_to IN NUMBER) RETURN t_nums PIPELINED;
  FUNCTION pairs (p_n IN NUMBER) RETURN pl_pair_tab PIPELINED;
END pl_gen;
/
CREATE OR REPLACE PACKAGE BODY pl_gen AS
  FUNCTION rows_of (p_n IN NUMBER) RETURN t_rows PIPELINED IS
    l_row t_row;
  BEGIN
    FOR i IN 1 .. p_n LOOP
      l_row.id := i;
      l_row.name := 'row' || i;
      PIPE ROW (l_row);
    END LOOP;
    RETURN;
  END rows_of;

  FUNCTION nums (p_from IN NUMBER, p_to IN NUMBER) RETURN t_nums PIPELINED IS
  BEGIN
    FOR i IN p_from .. p_to LOOP
      PIPE ROW (i);
    END LOOP;
    RETURN;
  END nums;

  FUNCTION pairs (p_n IN NUMBER) RETURN pl_pair_tab PIPELINED IS
  BEGIN
    FOR i IN 1 .. p_n LOOP
      PIPE ROW (pl_pair_t(i, 'k' || i));
    END LOOP;
  END pairs;
END pl_gen;
/
CREATE OR REPLACE FUNCTION pl_squares (p_n IN NUMBER) RETURN pl_num_tab PIPELINED IS
BEGIN
  FOR i IN 1 .. p_n LOOP
    PIPE ROW (i * i);
  END LOOP;
  RETURN;
END;
/
CREATE OR REPLACE FUNCTION pl_pair_list (p_n IN NUMBER) RETURN pl_pair_tab IS
  l_out pl_pair_tab := pl_pair_tab();
BEGIN
  FOR i IN 1 .. p_n LOOP
    l_out.EXTEND;
    l_out(l_out.COUNT) := pl_pair_t(i * 10, 'p' || i);
  END LOOP;
  RETURN l_out;
END;
/
"""

USE = """
CREATE OR REPLACE PACKAGE pl_use AS
  FUNCTION joined RETURN VARCHAR2;
  FUNCTION via_cursor RETURN VARCHAR2;
  FUNCTION via_open_for (p_n IN NUMBER) RETURN VARCHAR2;
  FUNCTION nested RETURN NUMBER;
  FUNCTION objects RETURN VARCHAR2;
END pl_use;
/
CREATE OR REPLACE PACKAGE BODY pl_use AS
  FUNCTION joined RETURN VARCHAR2 IS
    l_out VARCHAR2(200);
  BEGIN
    FOR r IN (SELECT g.id, g.name, i.label
                FROM TABLE(pl_gen.rows_of(5)) g
                JOIN pl_items i ON i.id = g.id
               ORDER BY g.id DESC) LOOP
      l_out := l_out || r.name || '=' || r.label || ';';
    END LOOP;
    RETURN l_out;
  END joined;

  FUNCTION via_cursor RETURN VARCHAR2 IS
    CURSOR c_sq (p_n NUMBER) IS
      SELECT s.COLUMN_VALUE AS sq FROM TABLE(pl_squares(p_n)) s ORDER BY 1 DESC;
    l_out VARCHAR2(200);
  BEGIN
    FOR r IN c_sq(4) LOOP
      l_out := l_out || r.sq || ',';
    END LOOP;
    RETURN l_out;
  END via_cursor;

  FUNCTION via_open_for (p_n IN NUMBER) RETURN VARCHAR2 IS
    l_cur SYS_REFCURSOR;
    l_v   NUMBER;
    l_out VARCHAR2(200);
  BEGIN
    OPEN l_cur FOR SELECT COLUMN_VALUE FROM TABLE(pl_gen.nums(2, p_n));
    LOOP
      FETCH l_cur INTO l_v;
      EXIT WHEN l_cur%NOTFOUND;
      l_out := l_out || l_v;
    END LOOP;
    CLOSE l_cur;
    RETURN l_out;
  END via_open_for;

  FUNCTION nested RETURN NUMBER IS
    l_n NUMBER;
  BEGIN
    SELECT COUNT(*) INTO l_n
      FROM pl_items
     WHERE id IN (SELECT COLUMN_VALUE FROM TABLE(pl_gen.nums(2, 9)))
       AND EXISTS (SELECT 1 FROM TABLE(pl_gen.rows_of(3)) g WHERE g.id = pl_items.id);
    RETURN l_n;
  END nested;

  FUNCTION objects RETURN VARCHAR2 IS
    l_out VARCHAR2(200);
    l_sum NUMBER;
  BEGIN
    FOR r IN (SELECT p.k, p.v FROM TABLE(pl_gen.pairs(2)) p) LOOP
      l_out := l_out || r.v || ':' || r.k || ';';
    END LOOP;
    SELECT SUM(k) INTO l_sum FROM TABLE(pl_pair_list(3));
    RETURN l_out || l_sum;
  END objects;
END pl_use;
/
CREATE OR REPLACE VIEW pl_v_joined AS
  SELECT i.label, g.name
    FROM pl_items i, TABLE(pl_gen.rows_of(2)) g
   WHERE g.id = i.id;
CREATE OR REPLACE VIEW pl_v_nested AS
  SELECT label FROM pl_items
   WHERE id IN (SELECT s.COLUMN_VALUE FROM TABLE(pl_squares(2)) s);
CREATE OR REPLACE VIEW pl_v_pairs (pair_key, pair_value) AS
  SELECT k, v FROM TABLE(pl_pair_list(2));
"""

FILES = {"types.sql": TYPES, "gen.pkg": GEN, "use.pkg": USE}


def test_pipelined_and_table_in_every_position(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", FILES)

        def one(sql: str):
            return conn.execute(sql).fetchone()[0]

        assert one("SELECT pl_use.joined()") == "row3=three;row2=two;row1=one;"
        assert one("SELECT pl_use.via_cursor()") == "16,9,4,1,"
        assert one("SELECT pl_use.via_open_for(4)") == "234"
        assert one("SELECT pl_use.via_open_for(1)") is None  # an empty pipe: no rows
        assert one("SELECT pl_use.nested()") == 2
        assert one("SELECT pl_use.objects()") == "k1:1;k2:2;60"
        assert conn.execute("SELECT label, name FROM pl_v_joined ORDER BY 1").fetchall() == [
            ("one", "row1"),
            ("two", "row2"),
        ]
        assert conn.execute("SELECT label FROM pl_v_nested").fetchall() == [("one",)]
        assert conn.execute("SELECT pair_key, pair_value FROM pl_v_pairs ORDER BY 1").fetchall() == [
            (10, "p1"),
            (20, "p2"),
        ]
        # a PIPELINED function is a set-returning function SQL reads directly, as TABLE() does in Oracle
        assert conn.execute("SELECT * FROM pl_gen.rows_of(2)").fetchall() == [(1, "row1"), (2, "row2")]


MISSING = """
CREATE OR REPLACE PACKAGE pl_missing AS
  FUNCTION split (p_text IN VARCHAR2) RETURN t_undeclared_array PIPELINED;
END pl_missing;
/
CREATE OR REPLACE PACKAGE BODY pl_missing AS
  FUNCTION split (p_text IN VARCHAR2) RETURN t_undeclared_array PIPELINED IS
  BEGIN
    PIPE ROW (p_text);
    RETURN;
  END split;
END pl_missing;
/
CREATE OR REPLACE VIEW pl_v_missing AS SELECT COLUMN_VALUE AS part FROM TABLE(pl_missing.split('a'));
"""


def test_pipelined_over_an_undeclared_type_names_the_type(tmp_path):
    folder = tmp_path / "app"
    folder.mkdir()
    (folder / "missing.pkg").write_text(MISSING, encoding="utf-8")
    source = read_schema_dir(folder)
    ctx = prepare_context(source)
    reasons = []
    for unit in source.units:
        conversion = convert_unit(unit, ctx)
        reasons += [(u.construct, u.message) for u in conversion.unconverted]
    assert reasons, "a PIPELINED function over an undeclared type converted"
    assert all("t_undeclared_array" in message.lower() for _, message in reasons), reasons


def test_table_over_what_is_not_in_the_export_names_it():
    from migrator.convert.sql.convert import convert_statement
    from tests.migrator.sql_catalog import make_ctx

    for sql, needle in [
        ("SELECT * FROM TABLE(no_such_fn(1))", "no function no_such_fn"),
        ("SELECT * FROM TABLE(XMLSEQUENCE(x.doc))", "XMLSEQUENCE over an XMLTYPE"),
    ]:
        ctx = make_ctx()
        convert_statement(sql, ctx)
        assert [u.construct for u in ctx.unconverted_items] == ["TABLE()"], sql
        assert needle in ctx.unconverted_items[0].message, ctx.unconverted_items


# The collection types in one package, the PIPELINED functions in a second, the queries over them in
# a third unit and a view: a record type and a %ROWTYPE element, a function called with and without
# parentheses inside TABLE() (PL/SQL Language Reference, "Pipelined Table Functions": the return
# type may be a package type of any package the function can see).
ACROSS = """
CREATE TABLE pk_emp (id NUMBER PRIMARY KEY, name VARCHAR2(30));
INSERT INTO pk_emp VALUES (2, 'Bo');
INSERT INTO pk_emp VALUES (1, 'Al');
CREATE OR REPLACE PACKAGE pk_types AS
  TYPE t_emp_tab IS TABLE OF pk_emp%ROWTYPE;
  TYPE t_rec IS RECORD (k VARCHAR2(10), n NUMBER);
  TYPE t_rec_tab IS TABLE OF t_rec;
END pk_types;
/
CREATE OR REPLACE PACKAGE pk_src AS
  FUNCTION emps RETURN pk_types.t_emp_tab PIPELINED;
  FUNCTION recs (p_n IN NUMBER) RETURN pk_types.t_rec_tab PIPELINED;
END pk_src;
/
CREATE OR REPLACE PACKAGE BODY pk_src AS
  FUNCTION emps RETURN pk_types.t_emp_tab PIPELINED IS
  BEGIN
    FOR r IN (SELECT * FROM pk_emp ORDER BY id) LOOP
      PIPE ROW (r);
    END LOOP;
    RETURN;
  END emps;
  FUNCTION recs (p_n IN NUMBER) RETURN pk_types.t_rec_tab PIPELINED IS
    l pk_types.t_rec;
  BEGIN
    FOR i IN 1 .. p_n LOOP
      l.k := 'k' || i;
      l.n := i * 10;
      PIPE ROW (l);
    END LOOP;
    RETURN;
  END recs;
END pk_src;
/
CREATE OR REPLACE FUNCTION pk_use RETURN VARCHAR2 IS
  l VARCHAR2(400);
BEGIN
  FOR r IN (SELECT name FROM TABLE(pk_src.emps)) LOOP
    l := l || r.name || ',';
  END LOOP;
  FOR r IN (SELECT k, n FROM TABLE(pk_src.recs(2))) LOOP
    l := l || r.k || '=' || r.n || ',';
  END LOOP;
  RETURN l;
END pk_use;
/
CREATE OR REPLACE VIEW pk_v_recs AS SELECT k, n FROM TABLE(pk_src.recs(3));
"""


def test_table_over_functions_returning_another_package_s_types(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "across", {"across.sql": ACROSS})
        assert conn.execute("SELECT pk_use()").fetchone()[0] == "Al,Bo,k1=10,k2=20,"
        assert conn.execute("SELECT k, n FROM pk_v_recs ORDER BY n").fetchall() == [("k1", 10), ("k2", 20), ("k3", 30)]
