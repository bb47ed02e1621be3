"""``REF t`` attributes, columns and collection elements, executed on PostgreSQL (issue #26).

Oracle Object-Relational Developer's Guide, "Object Identifiers Used to Identify Row Objects" /
"References to Row Objects": a REF is a logical pointer to a row object; an attribute or column of
type REF t holds one or NULL. It converts to ``oracompat.object_ref`` (the object's table and
identifier), so a type with REF attributes deploys, its instances hold NULL or a stored reference,
and two references compare equal when they point to the same object. Making one (REF(alias),
MAKE_REF) and following one (DEREF) are not converted (no object identifiers here): reported.
"""

from __future__ import annotations

import psycopg

from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.units import SourceSet, SourceSpan, Unit, UnitKind
from tests.migrator.convert.test_plsql_exec_types import deploy_schema

ORDERS = """
CREATE TYPE part_t AS OBJECT (part_id NUMBER(6), name VARCHAR2(20));
/
CREATE TYPE line_t AS OBJECT (line_no NUMBER(3), qty NUMBER(8), part_ref REF part_t);
/
CREATE TYPE line_list_t AS TABLE OF line_t;
/
CREATE TYPE part_refs_t AS TABLE OF REF part_t;
/
CREATE TABLE order_lines (order_id NUMBER PRIMARY KEY, lines line_list_t, picked part_refs_t);
INSERT INTO order_lines VALUES (1, line_list_t(line_t(1, 5, NULL), line_t(2, 1, NULL)), part_refs_t());

CREATE OR REPLACE FUNCTION line_count (p_id IN NUMBER) RETURN NUMBER IS
  v line_list_t;
BEGIN
  SELECT o.lines INTO v FROM order_lines o WHERE o.order_id = p_id;
  RETURN v.COUNT;
END;
/
CREATE OR REPLACE FUNCTION ref_is_null (p_id IN NUMBER, p_line IN NUMBER) RETURN VARCHAR2 IS
  v line_list_t;
  r REF part_t;
BEGIN
  SELECT o.lines INTO v FROM order_lines o WHERE o.order_id = p_id;
  r := v(p_line).part_ref;
  IF r IS NULL THEN RETURN 'null'; END IF;
  RETURN 'set';
END;
/
"""


def test_ref_attributes_store_and_compare(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "ord", {"orders.sql": ORDERS})
        assert conn.execute("SELECT line_count(1)").fetchone() == (2,)
        assert conn.execute("SELECT ref_is_null(1, 2)").fetchone() == ("null",)
        # a stored reference survives storage whole; two references to one object are equal
        conn.execute(
            "UPDATE order_lines SET picked = ARRAY[ROW('ord.part_tab', '17')::oracompat.object_ref,"
            " ROW('ord.part_tab', '17')::oracompat.object_ref] WHERE order_id = 1"
        )
        row = conn.execute("SELECT picked[1] = picked[2], (picked[1]).object_id FROM order_lines").fetchone()
        assert row == (True, "17")


def test_following_a_reference_is_reported():
    text = "CREATE VIEW v AS SELECT DEREF(l.part_ref) AS p FROM lines l"
    unit = Unit("view:ord.v", UnitKind.VIEW, "ord", "v", text, SourceSpan("v.sql", 1, 1, 0, len(text)), "utf-8")
    conversion = convert_unit(unit, prepare_context(SourceSet(root=".", schema="ord", units=[unit])))
    assert conversion.unconverted and "MIGRATOR_UNCONVERTED" in conversion.output


FORWARD = """
CREATE TYPE person_t;
/
CREATE TYPE visit_t AS OBJECT (visit_no NUMBER, who REF person_t);
/
CREATE OR REPLACE TYPE person_t AS OBJECT (name VARCHAR2(20)) NOT FINAL;
/
CREATE TYPE staff_t UNDER person_t (badge NUMBER);
/
CREATE TABLE people (id NUMBER PRIMARY KEY, p person_t);
INSERT INTO people VALUES (1, person_t('Ann'));
INSERT INTO people VALUES (2, staff_t('Bob', 7));
CREATE OR REPLACE VIEW people_names AS SELECT x.id, x.p.name AS name FROM people x;
"""


def test_forward_declared_type_is_defined_by_its_full_definition(pg_dsn, tmp_path):
    """``CREATE TYPE t;`` then ``CREATE OR REPLACE TYPE t AS OBJECT (...) NOT FINAL``: the full
    definition is the type (a subtype UNDER it deploys and holds its own attributes)."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "fw", {"people.sql": FORWARD})
        assert conn.execute("SELECT id, name FROM people_names ORDER BY id").fetchall() == [(1, "Ann"), (2, "Bob")]


MULTISET = """
CREATE TYPE stock_t AS OBJECT (depot VARCHAR2(10), qty NUMBER(6));
/
CREATE TYPE stock_list_t AS TABLE OF stock_t;
/
CREATE TYPE qty_list_t AS VARRAY(10) OF NUMBER(6);
/
CREATE TABLE items (item_id NUMBER PRIMARY KEY, name VARCHAR2(20));
CREATE TABLE stock (item_id NUMBER, depot VARCHAR2(10), qty NUMBER(6));
INSERT INTO items VALUES (1, 'bolt');
INSERT INTO items VALUES (2, 'nut');
INSERT INTO stock VALUES (1, 'north', 40);
INSERT INTO stock VALUES (1, 'south', 5);
CREATE OR REPLACE VIEW item_stock AS
  SELECT it.item_id, it.name,
         CAST(MULTISET(SELECT s.depot, s.qty FROM stock s WHERE s.item_id = it.item_id ORDER BY s.depot)
              AS stock_list_t) AS stocks,
         CAST(MULTISET(SELECT s.qty FROM stock s WHERE s.item_id = it.item_id ORDER BY s.qty) AS qty_list_t) AS qtys
    FROM items it;

CREATE OR REPLACE FUNCTION depots_of (p_item IN NUMBER) RETURN NUMBER IS
  v stock_list_t;
BEGIN
  SELECT x.stocks INTO v FROM item_stock x WHERE x.item_id = p_item;
  RETURN v.COUNT;
END;
/
"""


def test_cast_multiset_builds_collections_in_a_view(pg_dsn, tmp_path):
    """Each item's stock rows as a nested table of objects and a VARRAY of numbers, in the
    subquery's order; an item without rows gets empty collections, not NULL."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "ms", {"stock.sql": MULTISET})
        rows = conn.execute(
            "SELECT item_id, cardinality(stocks), (stocks[1]).depot, (stocks[2]).qty, qtys FROM item_stock ORDER BY 1"
        ).fetchall()
        assert rows == [(1, 2, "north", 5, [5, 40]), (2, 0, None, None, [])]
        assert conn.execute("SELECT depots_of(1), depots_of(2)").fetchone() == (2, 0)


OBJECT_VIEW = """
CREATE TYPE depot_t AS OBJECT (depot_id NUMBER, label VARCHAR2(10));
/
CREATE TYPE stock_row_t AS OBJECT (item_id NUMBER, depot depot_t, qty NUMBER);
/
CREATE TABLE depots (depot_id NUMBER PRIMARY KEY, label VARCHAR2(10));
CREATE TABLE stock (item_id NUMBER, depot_id NUMBER, qty NUMBER);
INSERT INTO depots VALUES (1, 'north');
INSERT INTO stock VALUES (7, 1, 40);
CREATE OR REPLACE VIEW stock_rows OF stock_row_t WITH OBJECT IDENTIFIER (item_id) AS
  SELECT s.item_id, depot_t(d.depot_id, d.label), s.qty FROM stock s, depots d WHERE s.depot_id = d.depot_id;
CREATE OR REPLACE VIEW stock_labels AS SELECT r.item_id, r.depot.label AS label, r.qty FROM stock_rows r;
"""


def test_object_view_columns_are_the_type_attributes(pg_dsn, tmp_path):
    """``CREATE VIEW v OF t``: the view's columns are named after t's attributes, so another view
    reads ``r.depot.label`` through them."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "ov", {"stock.sql": OBJECT_VIEW})
        assert conn.execute("SELECT item_id, label, qty FROM stock_labels").fetchall() == [(7, "north", 40)]


HIERARCHY_PARTS = """
CREATE TYPE shape_t AS OBJECT (label VARCHAR2(20), NOT INSTANTIABLE MEMBER FUNCTION kind RETURN VARCHAR2)
  NOT INSTANTIABLE NOT FINAL;
/
CREATE TYPE shape_refs_t AS TABLE OF REF shape_t;
/
CREATE TYPE corner_list_t AS TABLE OF NUMBER;
/
CREATE TYPE polygon_t UNDER shape_t (corners corner_list_t, OVERRIDING MEMBER FUNCTION kind RETURN VARCHAR2);
/
CREATE TYPE BODY polygon_t AS
  OVERRIDING MEMBER FUNCTION kind RETURN VARCHAR2 IS BEGIN RETURN 'polygon'; END;
END;
/
CREATE TYPE group_t UNDER shape_t (members shape_refs_t, OVERRIDING MEMBER FUNCTION kind RETURN VARCHAR2);
/
CREATE TYPE BODY group_t AS
  OVERRIDING MEMBER FUNCTION kind RETURN VARCHAR2 IS BEGIN RETURN 'group'; END;
END;
/
CREATE OR REPLACE FUNCTION corner_total RETURN NUMBER IS
  p polygon_t := polygon_t('tri', corner_list_t(1, 2, 3));
  s shape_t := p;
BEGIN
  RETURN p.corners.COUNT + LENGTH(s.kind());
END;
/
"""


def test_hierarchy_root_deploys_after_its_subtypes_attribute_types(pg_dsn, tmp_path):
    """The root's composite holds the subtypes' attributes (a collection declared after the root,
    a nested table of REFs to the root itself): those types deploy first, and dispatch works."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "hp", {"shapes.sql": HIERARCHY_PARTS})
        assert conn.execute("SELECT corner_total()").fetchone() == (10,)  # 3 corners + len('polygon')


def test_object_table_is_refused_with_its_reason():
    text = "CREATE TABLE parts_tab OF part_t (part_id PRIMARY KEY)"
    unit = Unit(
        "table:ord.parts_tab",
        UnitKind.TABLE,
        "ord",
        "parts_tab",
        text,
        SourceSpan("t.sql", 1, 1, 0, len(text)),
        "utf-8",
    )
    conversion = convert_unit(unit, prepare_context(SourceSet(root=".", schema="ord", units=[unit])))
    (item,) = conversion.unconverted
    assert "object table" in item.message and "MIGRATOR_UNCONVERTED" in conversion.output
