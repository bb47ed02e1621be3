"""Object type hierarchies on PostgreSQL (migrator.convert.type_hierarchy): NOT FINAL / NOT
INSTANTIABLE bases, UNDER subtypes OVERRIDING members, dynamic dispatch through a supertype
variable and through the elements of a collection of the supertype holding subtypes."""

from __future__ import annotations

import psycopg

from tests.migrator.convert.test_plsql_exec_types import deploy_schema

SHAPES = """
CREATE OR REPLACE TYPE shape_t AS OBJECT (
  name VARCHAR2(30),
  NOT INSTANTIABLE MEMBER FUNCTION area RETURN NUMBER,
  MEMBER FUNCTION describe RETURN VARCHAR2
) NOT FINAL NOT INSTANTIABLE;
/
CREATE OR REPLACE TYPE BODY shape_t AS
  MEMBER FUNCTION describe RETURN VARCHAR2 IS
  BEGIN
    RETURN name || ':' || area();
  END;
END;
/
CREATE OR REPLACE TYPE circle_t UNDER shape_t (
  radius NUMBER,
  OVERRIDING MEMBER FUNCTION area RETURN NUMBER
) NOT FINAL;
/
CREATE OR REPLACE TYPE BODY circle_t AS
  OVERRIDING MEMBER FUNCTION area RETURN NUMBER IS
  BEGIN
    RETURN 3 * radius * radius;
  END;
END;
/
CREATE OR REPLACE TYPE rect_t UNDER shape_t (
  w NUMBER,
  h NUMBER,
  OVERRIDING MEMBER FUNCTION area RETURN NUMBER,
  OVERRIDING MEMBER FUNCTION describe RETURN VARCHAR2
);
/
CREATE OR REPLACE TYPE BODY rect_t AS
  OVERRIDING MEMBER FUNCTION area RETURN NUMBER IS
  BEGIN
    RETURN w * h;
  END;
  OVERRIDING MEMBER FUNCTION describe RETURN VARCHAR2 IS
  BEGIN
    RETURN 'rect ' || w || 'x' || h;
  END;
END;
/
CREATE OR REPLACE TYPE ring_t UNDER circle_t (
  hole NUMBER
);
/
CREATE OR REPLACE TYPE shape_list AS TABLE OF shape_t;
/
CREATE OR REPLACE FUNCTION total_area RETURN VARCHAR2 IS
  l_shapes shape_list := shape_list(circle_t('c', 2), rect_t('r', 3, 4), ring_t('g', 1, 0));
  l_one    shape_t;
  l_out    VARCHAR2(4000);
  l_sum    NUMBER := 0;
BEGIN
  FOR i IN 1 .. l_shapes.COUNT LOOP
    l_sum := l_sum + l_shapes(i).area();
    l_out := l_out || l_shapes(i).describe() || ';';
  END LOOP;
  l_one := rect_t('q', 2, 5);
  l_out := l_out || l_one.area() || ';' || l_one.name;
  RETURN l_sum || '|' || l_out;
END;
/
CREATE OR REPLACE FUNCTION kinds RETURN VARCHAR2 IS
  l_shapes shape_list := shape_list(circle_t('c', 2), rect_t('r', 3, 4), ring_t('g', 1, 0));
  l_out    VARCHAR2(4000);
  l_circle circle_t;
BEGIN
  FOR i IN 1 .. l_shapes.COUNT LOOP
    l_circle := TREAT(l_shapes(i) AS circle_t);
    IF l_shapes(i) IS OF (ONLY circle_t) THEN
      l_out := l_out || 'only-circle ';
    ELSIF l_shapes(i) IS OF (circle_t) THEN
      l_out := l_out || 'circle ';
    ELSIF l_shapes(i) IS NOT OF (circle_t) THEN
      l_out := l_out || 'other ';
    END IF;
    l_out := l_out || NVL(TO_CHAR(l_circle.radius), '-') || NVL(TO_CHAR(TREAT(l_shapes(i) AS rect_t).w), '-') || ';';
  END LOOP;
  RETURN l_out;
END;
/
CREATE OR REPLACE FUNCTION one_area (p_kind IN VARCHAR2) RETURN NUMBER IS
  l_shape shape_t;
BEGIN
  IF p_kind = 'circle' THEN
    l_shape := circle_t('c', 1);
  ELSIF p_kind = 'ring' THEN
    l_shape := ring_t('g', 2, 1);
  ELSIF p_kind = 'rect' THEN
    l_shape := rect_t('r', 2, 3);
  END IF;
  RETURN l_shape.area();
END;
/
"""


def test_hierarchy_dispatch_through_supertype_collection(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "shapes", {"shapes.sql": SHAPES})
        # circle 3*2*2 = 12, rect 3*4, ring (a circle's area) 3*1*1; describe: the base's but rect's own
        got = conn.execute("SELECT total_area()").fetchone()[0]
        assert got == "27|c:12;rect 3x4;g:3;10;q"
        assert [conn.execute("SELECT one_area(%s)", (k,)).fetchone()[0] for k in ("circle", "ring", "rect")] == [
            3,
            12,
            6,
        ]
        # TREAT(x AS t): the value when x is a t (or a subtype of t), else NULL; IS OF (t) / (ONLY t)
        assert conn.execute("SELECT kinds()").fetchone()[0] == "only-circle 2-;other -3;circle 1-;"
        # a NULL supertype variable: Oracle's ORA-30625
        try:
            conn.execute("SELECT one_area('none')")
            raise AssertionError("dispatch on NULL SELF must fail")
        except psycopg.errors.RaiseException as exc:
            assert "ORA-30625" in str(exc)
        # a subtype's value is checked by its domain: a rect is not a circle
        try:
            conn.execute("SELECT ROW('x', NULL, 1, 1, NULL, 'RECT_T')::circle_t")
            raise AssertionError("the domain admits only circle_t and its subtypes")
        except psycopg.errors.CheckViolation:
            pass


ORDERED = """
CREATE OR REPLACE TYPE version_t AS OBJECT (
  major NUMBER,
  minor NUMBER,
  CONSTRUCTOR FUNCTION version_t (p_text IN VARCHAR2) RETURN SELF AS RESULT,
  ORDER MEMBER FUNCTION cmp (other IN version_t) RETURN INTEGER,
  STATIC FUNCTION initial RETURN version_t
);
/
CREATE OR REPLACE TYPE BODY version_t AS
  CONSTRUCTOR FUNCTION version_t (p_text IN VARCHAR2) RETURN SELF AS RESULT IS
  BEGIN
    major := TO_NUMBER(SUBSTR(p_text, 1, INSTR(p_text, '.') - 1));
    minor := TO_NUMBER(SUBSTR(p_text, INSTR(p_text, '.') + 1));
    RETURN;
  END;
  ORDER MEMBER FUNCTION cmp (other IN version_t) RETURN INTEGER IS
  BEGIN
    IF major <> other.major THEN
      RETURN SIGN(major - other.major);
    END IF;
    RETURN SIGN(minor - other.minor);
  END;
  STATIC FUNCTION initial RETURN version_t IS
  BEGIN
    RETURN version_t(0, 1);
  END;
END;
/
CREATE OR REPLACE TYPE money_t AS OBJECT (
  amount NUMBER,
  cur    VARCHAR2(3),
  MAP MEMBER FUNCTION in_cents RETURN NUMBER
);
/
CREATE OR REPLACE TYPE BODY money_t AS
  MAP MEMBER FUNCTION in_cents RETURN NUMBER IS
  BEGIN
    RETURN amount * CASE cur WHEN 'EUR' THEN 100 ELSE 1 END;
  END;
END;
/
CREATE OR REPLACE TYPE account_t AS OBJECT (
  id      NUMBER,
  balance NUMBER,
  MEMBER PROCEDURE deposit (p_amount IN NUMBER),
  MEMBER FUNCTION kind RETURN VARCHAR2
) NOT FINAL;
/
CREATE OR REPLACE TYPE BODY account_t AS
  MEMBER PROCEDURE deposit (p_amount IN NUMBER) IS
  BEGIN
    balance := balance + p_amount;
  END;
  MEMBER FUNCTION kind RETURN VARCHAR2 IS
  BEGIN
    RETURN 'plain';
  END;
END;
/
CREATE OR REPLACE TYPE savings_t UNDER account_t (
  rate NUMBER,
  CONSTRUCTOR FUNCTION savings_t (p_id IN NUMBER, p_rate IN NUMBER) RETURN SELF AS RESULT,
  OVERRIDING MEMBER PROCEDURE deposit (p_amount IN NUMBER),
  OVERRIDING MEMBER FUNCTION kind RETURN VARCHAR2
);
/
CREATE OR REPLACE TYPE BODY savings_t AS
  CONSTRUCTOR FUNCTION savings_t (p_id IN NUMBER, p_rate IN NUMBER) RETURN SELF AS RESULT IS
  BEGIN
    id := p_id;
    balance := 0;
    rate := p_rate;
    RETURN;
  END;
  OVERRIDING MEMBER PROCEDURE deposit (p_amount IN NUMBER) IS
  BEGIN
    balance := balance + p_amount * (1 + rate);
  END;
  OVERRIDING MEMBER FUNCTION kind RETURN VARCHAR2 IS
  BEGIN
    RETURN 'savings at ' || rate;
  END;
END;
/
CREATE OR REPLACE FUNCTION compare_all RETURN VARCHAR2 IS
  l_a   version_t := version_t('1.2');
  l_b   version_t := version_t(1, 10);
  l_out VARCHAR2(200);
BEGIN
  IF l_a < l_b THEN
    l_out := 'lt';
  END IF;
  IF l_a = version_t('1.2') THEN
    l_out := l_out || ',eq';
  END IF;
  IF version_t.initial() <= l_a THEN
    l_out := l_out || ',le';
  END IF;
  l_out := l_out || ',' || l_b.cmp(l_a);
  IF money_t(2, 'EUR') > money_t(150, 'CT') THEN
    l_out := l_out || ',map';
  END IF;
  RETURN l_out;
END;
/
CREATE OR REPLACE FUNCTION bank RETURN VARCHAR2 IS
  l_acc account_t := savings_t(7, 0.5);
  l_out VARCHAR2(200);
BEGIN
  l_acc.deposit(10);
  l_out := l_acc.kind() || ':' || l_acc.balance;
  l_acc := account_t(8, 1);
  l_acc.deposit(10);
  RETURN l_out || ';' || l_acc.kind() || ':' || l_acc.balance;
END;
/
"""


def test_order_map_constructors_static_and_self_in_out_dispatch(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "ord", {"ord.sql": ORDERED})
        # ORDER: 1.2 < 1.10 (numeric minor), = through the method, STATIC + user constructor;
        # MAP: 2 EUR (200 cents) > 150 CT
        assert conn.execute("SELECT compare_all()").fetchone()[0] == "lt,eq,le,1,map"
        # MEMBER PROCEDURE (SELF IN OUT) dispatched through the supertype variable; the
        # subtype's constructor starts SELF as a savings_t
        assert conn.execute("SELECT bank()").fetchone()[0] == "savings at .5:15;plain:11"  # Oracle writes 0.5 as .5
        # the operators serve SQL too
        assert conn.execute("SELECT ROW(1, 2)::version_t < version_t__new('1.10')").fetchone()[0] is True
