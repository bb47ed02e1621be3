"""Call forms real packages use, on PostgreSQL: a field of the record or object a function returns
(`f(x).field`, `pkg.f().field`: rule sql `nodes.call_field`), and a package declaring a function and a
procedure of one name with the same parameters (the procedure becomes `<name>__proc`, call
statements reach it, expressions the function: `signatures.procedure_name`)."""

from __future__ import annotations

import psycopg

from tests.migrator.convert.test_plsql_exec_types import deploy_schema

CALL_FIELDS = """
CREATE OR REPLACE TYPE tok_t AS OBJECT (kind VARCHAR2(10), txt VARCHAR2(100));
/
CREATE OR REPLACE PACKAGE lexer AS
  TYPE rec IS RECORD (expression VARCHAR2(100), n NUMBER);
  FUNCTION cur RETURN tok_t;
  FUNCTION src(i NUMBER) RETURN rec;
  FUNCTION show RETURN VARCHAR2;
END;
/
CREATE OR REPLACE PACKAGE BODY lexer AS
  FUNCTION cur RETURN tok_t IS BEGIN RETURN tok_t('word', 'abc'); END;
  FUNCTION src(i NUMBER) RETURN rec IS
    r rec;
  BEGIN
    r.expression := 'x' || i;
    r.n := i * 10;
    RETURN r;
  END;
  FUNCTION show RETURN VARCHAR2 IS
  BEGIN
    IF cur().kind = 'word' AND lexer.src(2).n > 5 THEN
      RETURN lexer.cur().kind || '/' || cur().txt || '/' || src(3).expression || '/' || lexer.src(4).n;
    END IF;
    RETURN 'no';
  END;
END;
/
CREATE OR REPLACE PACKAGE stk AS
  FUNCTION pop(p_n IN PLS_INTEGER) RETURN VARCHAR2;
  PROCEDURE pop(p_n IN PLS_INTEGER);
  FUNCTION depth RETURN PLS_INTEGER;
END;
/
CREATE OR REPLACE PACKAGE BODY stk AS
  g_depth PLS_INTEGER := 10;
  FUNCTION pop(p_n IN PLS_INTEGER) RETURN VARCHAR2 IS
  BEGIN
    g_depth := g_depth - p_n;
    RETURN 'popped ' || p_n;
  END;
  PROCEDURE pop(p_n IN PLS_INTEGER) IS
    l_msg VARCHAR2(100);
  BEGIN
    l_msg := pop(p_n * 2);
    DBMS_OUTPUT.PUT_LINE('proc ' || l_msg);
  END;
  FUNCTION depth RETURN PLS_INTEGER IS BEGIN RETURN g_depth; END;
END;
/
CREATE OR REPLACE FUNCTION drive RETURN VARCHAR2 IS
  l_got VARCHAR2(100);
BEGIN
  stk.pop(1);
  l_got := stk.pop(3);
  RETURN l_got || ';' || stk.depth;
END;
/
"""


def test_call_result_fields_and_function_procedure_of_one_name(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "calls", {"calls.sql": CALL_FIELDS})
        assert conn.execute("SELECT lexer.show()").fetchone()[0] == "word/abc/x3/40"
        got: list[str] = []
        conn.add_notice_handler(lambda d: got.append(d.message_primary))
        # the statement stk.pop(1) is the procedure (it pops 2 through the function), the
        # expression stk.pop(3) the function: 10 - 2 - 3
        assert conn.execute("SELECT drive()").fetchone()[0] == "popped 3;5"
        assert got == ["proc popped 2"]


RECORD_COLLECTIONS = """
CREATE OR REPLACE PACKAGE kv AS
  TYPE t_lov IS TABLE OF VARCHAR2(100) INDEX BY PLS_INTEGER;
  TYPE t_map IS TABLE OF VARCHAR2(100) INDEX BY VARCHAR2(100);
  TYPE t_params IS RECORD (lov t_lov, options t_map, label VARCHAR2(20));
  FUNCTION parse(p_txt VARCHAR2) RETURN t_params;
  FUNCTION show(p_txt VARCHAR2) RETURN VARCHAR2;
  FUNCTION empty_count RETURN NUMBER;
END;
/
CREATE OR REPLACE PACKAGE BODY kv AS
  FUNCTION parse(p_txt VARCHAR2) RETURN t_params IS
    r t_params;
  BEGIN
    r.lov(1) := 'a';
    r.lov(2) := p_txt;
    r.options('k') := 'v';
    r.options('k') := r.options('k') || 'w';
    r.label := 'L';
    RETURN r;
  END;
  FUNCTION show(p_txt VARCHAR2) RETURN VARCHAR2 IS
    p t_params := parse(p_txt);
  BEGIN
    IF p.options.exists('k') AND NOT p.options.exists('z') AND p.lov.count = 2 THEN
      RETURN p.lov(2) || p.options('k') || p.lov.count || p.label || p.lov.first || p.lov.last;
    END IF;
    RETURN 'none';
  END;
  FUNCTION empty_count RETURN NUMBER IS
    p t_params;
  BEGIN
    RETURN p.lov.count + p.options.count;
  END;
END;
/
CREATE OR REPLACE FUNCTION outside RETURN VARCHAR2 IS
  p kv.t_params := kv.parse('q');
BEGIN
  RETURN p.lov(1) || p.options('k') || p.options.count;
END;
/
"""


def test_collection_fields_of_records(pg_dsn, tmp_path):
    """A record whose fields are INDEX BY tables: element writes and reads, EXISTS, COUNT, FIRST and
    LAST through the field, from its own package and from another unit; a fresh record's tables
    are empty (COUNT 0), as in Oracle."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "kv", {"kv.sql": RECORD_COLLECTIONS})
        assert conn.execute("SELECT kv.show('b')").fetchone()[0] == "bvw2L12"
        assert conn.execute("SELECT kv.empty_count()").fetchone()[0] == 0
        assert conn.execute("SELECT outside()").fetchone()[0] == "avw1"


QUALIFIED_MAPS = """
CREATE OR REPLACE PACKAGE names AS
  SUBTYPE name_t IS VARCHAR2(30);
  k_first CONSTANT name_t := 'zeta';
  FUNCTION lookup(p_key name_t) RETURN VARCHAR2;
  FUNCTION walk RETURN VARCHAR2;
END;
/
CREATE OR REPLACE PACKAGE BODY names AS
  TYPE map_t IS TABLE OF name_t INDEX BY name_t;
  TYPE by_num_t IS TABLE OF VARCHAR2(10) INDEX BY PLS_INTEGER;
  c_map CONSTANT map_t := map_t(k_first => 'last', 'alpha' => 'first', '10' => 'ten', '9' => 'nine');
  FUNCTION lookup(p_key name_t) RETURN VARCHAR2 IS
  BEGIN
    IF NOT c_map.EXISTS(p_key) THEN
      RETURN 'none';
    END IF;
    RETURN c_map(p_key);
  END;
  FUNCTION walk RETURN VARCHAR2 IS
    l_nums  by_num_t := by_num_t(10 => 'c', 2 => 'b', 9 + 1 - 9 => 'a');
    l_empty map_t := map_t();
    l_key   name_t := c_map.FIRST;
    l_out   VARCHAR2(200);
    i       PLS_INTEGER;
  BEGIN
    WHILE l_key IS NOT NULL LOOP
      l_out := l_out || l_key || ',';
      l_key := c_map.NEXT(l_key);
    END LOOP;
    i := l_nums.FIRST;
    WHILE i IS NOT NULL LOOP
      l_out := l_out || i || l_nums(i);
      i := l_nums.NEXT(i);
    END LOOP;
    RETURN l_out || ';' || l_empty.COUNT || ';' || c_map.COUNT;
  END;
END;
/
"""


def test_qualified_expressions_of_index_by_tables(pg_dsn, tmp_path):
    """Oracle 18c's ``t(index => value, ...)`` for INDEX BY tables, indexes being expressions (a
    package constant, literals, arithmetic); a table INDEX BY a SUBTYPE of VARCHAR2 keeps string
    keys in Oracle's order ('10' before '9'), a PLS_INTEGER one numeric order."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "names", {"names.sql": QUALIFIED_MAPS})
        assert [conn.execute("SELECT names.lookup(%s)", (k,)).fetchone()[0] for k in ("zeta", "alpha", "x")] == [
            "last",
            "first",
            "none",
        ]
        assert conn.execute("SELECT names.walk()").fetchone()[0] == "10,9,alpha,zeta,1a2b10c;0;4"


CURSORS = """
CREATE TABLE items (id NUMBER PRIMARY KEY, name VARCHAR2(20), grp NUMBER);
INSERT INTO items VALUES (1, 'a', 1);
INSERT INTO items VALUES (2, 'b', 1);
INSERT INTO items VALUES (3, 'c', 2);
CREATE OR REPLACE PACKAGE inv AS
  CURSOR c_all IS SELECT id, name FROM items ORDER BY id;
  FUNCTION listing RETURN VARCHAR2;
  FUNCTION group_names(p_grp NUMBER) RETURN VARCHAR2;
  FUNCTION first_batch RETURN VARCHAR2;
END;
/
CREATE OR REPLACE PACKAGE BODY inv AS
  CURSOR c_grp (p_grp NUMBER) IS SELECT name FROM items WHERE grp = p_grp ORDER BY name DESC;
  FUNCTION listing RETURN VARCHAR2 IS
    l_out VARCHAR2(200);
  BEGIN
    FOR r IN c_all LOOP
      l_out := l_out || r.id || r.name;
    END LOOP;
    RETURN l_out;
  END;
  FUNCTION group_names(p_grp NUMBER) RETURN VARCHAR2 IS
    l_name items.name%TYPE;
    l_out  VARCHAR2(200);
  BEGIN
    OPEN c_grp(p_grp);
    LOOP
      FETCH c_grp INTO l_name;
      EXIT WHEN c_grp%NOTFOUND;
      l_out := l_out || l_name;
    END LOOP;
    l_out := l_out || ':' || c_grp%ROWCOUNT;
    CLOSE c_grp;
    RETURN l_out;
  END;
  FUNCTION first_batch RETURN VARCHAR2 IS
    TYPE t_rows IS TABLE OF c_all%ROWTYPE;
    l_rows t_rows;
  BEGIN
    OPEN c_all;
    FETCH c_all BULK COLLECT INTO l_rows LIMIT 2;
    IF c_all%ISOPEN THEN
      CLOSE c_all;
    END IF;
    RETURN l_rows.COUNT || l_rows(2).name;
  END;
END;
/
"""


def test_package_cursors(pg_dsn, tmp_path):
    """A package's cursors (spec and body, with parameters) used by members that open, read and close
    them: a cursor FOR loop, OPEN/FETCH/%NOTFOUND/%ROWCOUNT/CLOSE, BULK COLLECT LIMIT, %ISOPEN and
    c%ROWTYPE."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "inv", {"inv.sql": CURSORS})
        assert conn.execute("SELECT inv.listing()").fetchone()[0] == "1a2b3c"
        assert conn.execute("SELECT inv.group_names(1)").fetchone()[0] == "ba:2"
        assert conn.execute("SELECT inv.group_names(9)").fetchone()[0] == ":0"
        assert conn.execute("SELECT inv.first_batch()").fetchone()[0] == "2b"


def test_a_package_cursor_left_open_across_calls_is_reported(tmp_path):
    from migrator.convert.dispatch import convert_unit, prepare_context
    from migrator.source.reader import read_schema_dir

    (tmp_path / "p.sql").write_text(
        "CREATE OR REPLACE PACKAGE pk AS PROCEDURE start_it; FUNCTION next_one RETURN NUMBER; END;\n/\n"
        "CREATE OR REPLACE PACKAGE BODY pk AS\n  CURSOR c IS SELECT 1 AS x FROM dual;\n"
        "  PROCEDURE start_it IS BEGIN OPEN c; END;\n"
        "  FUNCTION next_one RETURN NUMBER IS n NUMBER; BEGIN FETCH c INTO n; RETURN n; END;\nEND;\n/\n",
        encoding="utf-8",
    )
    source = read_schema_dir(tmp_path)
    ctx = prepare_context(source)
    body = next(u for u in source.units if u.kind.value == "package_body")
    got = convert_unit(body, ctx)
    messages = [u.message for u in got.unconverted if u.construct == "package cursor"]
    assert any("start_it leaves it open" in m for m in messages) and any(
        "next_one reads or closes" in m for m in messages
    )


RESULT_METHODS = """
CREATE OR REPLACE TYPE pt AS OBJECT (
  x NUMBER,
  y NUMBER,
  MEMBER FUNCTION norm1 RETURN NUMBER,
  MEMBER FUNCTION scaled (k NUMBER) RETURN pt
);
/
CREATE OR REPLACE TYPE BODY pt AS
  MEMBER FUNCTION norm1 RETURN NUMBER IS BEGIN RETURN ABS(x) + ABS(y); END;
  MEMBER FUNCTION scaled (k NUMBER) RETURN pt IS BEGIN RETURN pt(x * k, y * k); END;
END;
/
CREATE OR REPLACE PACKAGE geo AS
  FUNCTION origin_plus (d NUMBER) RETURN pt;
  FUNCTION show RETURN VARCHAR2;
END;
/
CREATE OR REPLACE PACKAGE BODY geo AS
  FUNCTION origin_plus (d NUMBER) RETURN pt IS BEGIN RETURN pt(d, -d); END;
  FUNCTION show RETURN VARCHAR2 IS
  BEGIN
    RETURN geo.origin_plus(2).norm1() || ':' || origin_plus(3).scaled(2).x || ':' || origin_plus(1).y;
  END;
END;
/
"""


def test_methods_and_attributes_of_a_call_s_result(pg_dsn, tmp_path):
    """`pkg.f(x).m()`, `f(x).m(k).attr`, `f(x).attr`: the object a function returns, its methods and
    attributes, chained."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "geo", {"geo.sql": RESULT_METHODS})
        assert conn.execute("SELECT geo.show()").fetchone()[0] == "4:6:-1"
