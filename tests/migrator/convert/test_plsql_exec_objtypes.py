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
