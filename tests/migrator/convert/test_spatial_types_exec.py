"""Oracle Spatial's object types without PostGIS, and reading object attributes in SQL, executed on
PostgreSQL (issue #26: the sample schemas' spatial columns).

Oracle Spatial Developer's Guide, "SDO_GEOMETRY Object Type": SDO_GEOMETRY (SDO_GTYPE, SDO_SRID,
SDO_POINT, SDO_ELEM_INFO, SDO_ORDINATES), SDO_POINT_TYPE (X, Y, Z), SDO_ELEM_INFO_ARRAY and
SDO_ORDINATE_ARRAY (VARRAY(1048576) OF NUMBER), owned by MDSYS and reachable unqualified through
public synonyms. They convert to composite types and array domains in schema ``mdsys``
(`migrator/convert/oracompat/spatial.sql`): constructors, attribute reads, storage and NULLs behave
as in Oracle. Spatial operators and functions (SDO_GEOM.*, SDO_RELATE ...) are reported as needing
PostGIS. Oracle SQL Language Reference, "Using Object Types in SQL": an object column's attributes
are read through the table alias (``c.address.city``).
"""

from __future__ import annotations

from decimal import Decimal

import psycopg

from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.units import SourceSet, SourceSpan, Unit, UnitKind
from tests.migrator.convert.test_plsql_exec_types import deploy_schema

SITES = """
CREATE TABLE sites (
  site_id   NUMBER(6) PRIMARY KEY,
  label     VARCHAR2(40),
  location  MDSYS.SDO_GEOMETRY,
  outline   SDO_GEOMETRY
);

INSERT INTO sites VALUES (1, 'pin',
  MDSYS.SDO_GEOMETRY(2001, 4326, MDSYS.SDO_POINT_TYPE(-0.5, 51.25, NULL), NULL, NULL), NULL);
INSERT INTO sites VALUES (2, 'box', NULL,
  SDO_GEOMETRY(2003, NULL, NULL, SDO_ELEM_INFO_ARRAY(1, 1003, 3), SDO_ORDINATE_ARRAY(1, 1, 5, 7)));
INSERT INTO sites VALUES (3, 'nowhere', NULL, NULL);

CREATE OR REPLACE VIEW site_points AS
  SELECT s.site_id, s.location.sdo_gtype AS gtype, s.location.sdo_srid AS srid,
         s.location.sdo_point.x AS x, s.location.sdo_point.y AS y, s.location.sdo_point.z AS z
    FROM sites s;

CREATE OR REPLACE FUNCTION site_x (p_id IN NUMBER) RETURN NUMBER IS
  g  SDO_GEOMETRY;
  pt MDSYS.SDO_POINT_TYPE;
BEGIN
  SELECT s.location INTO g FROM sites s WHERE s.site_id = p_id;
  pt := g.sdo_point;
  RETURN pt.x;
END;
/

CREATE OR REPLACE FUNCTION corner_count (p_id IN NUMBER) RETURN NUMBER IS
  g SDO_GEOMETRY;
BEGIN
  SELECT s.outline INTO g FROM sites s WHERE s.site_id = p_id;
  RETURN g.sdo_ordinates.COUNT / 2;
END;
/

CREATE OR REPLACE PROCEDURE add_site (p_id IN NUMBER, p_x IN NUMBER, p_y IN NUMBER) IS
BEGIN
  INSERT INTO sites (site_id, label, location)
  VALUES (p_id, 'new', SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(p_x, p_y, NULL), NULL, NULL));
END;
/
"""


def test_spatial_types_store_construct_and_read_attributes(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "geo", {"sites.sql": SITES})
        rows = conn.execute("SELECT site_id, gtype, srid, x, y, z FROM site_points ORDER BY 1").fetchall()
        assert rows == [
            (1, Decimal(2001), Decimal(4326), Decimal("-0.5"), Decimal("51.25"), None),
            (2, None, None, None, None, None),
            (3, None, None, None, None, None),
        ]
        assert conn.execute("SELECT site_x(1)").fetchone() == (Decimal("-0.5"),)
        assert conn.execute("SELECT corner_count(2)").fetchone() == (Decimal(2),)
        # the VARRAYs keep their elements and order; a NULL geometry stays NULL (atomically)
        row = conn.execute("SELECT (outline).sdo_elem_info, (outline).sdo_ordinates FROM sites WHERE site_id = 2")
        assert row.fetchone() == ([1, 1003, 3], [1, 1, 5, 7])
        assert conn.execute("SELECT location IS NULL FROM sites WHERE site_id = 3").fetchone() == (True,)
        conn.execute("CALL add_site(4, 10.5, -3)")
        assert conn.execute("SELECT x, y FROM site_points WHERE site_id = 4").fetchone() == (
            Decimal("10.5"),
            Decimal(-3),
        )
        # equality of two geometries compares their attributes, as Oracle's does for an object
        # type without MAP or ORDER methods
        same = conn.execute(
            "SELECT a.location = b.location FROM sites a, sites b WHERE a.site_id = 1 AND b.site_id = 1"
        )
        assert same.fetchone() == (True,)


def _convert(text: str, kind: UnitKind = UnitKind.VIEW, name: str = "v", extra: tuple[Unit, ...] = ()):
    unit = Unit(f"{kind.value}:geo.{name}", kind, "geo", name, text, SourceSpan("g.sql", 1, 1, 0, len(text)), "utf-8")
    return convert_unit(unit, prepare_context(SourceSet(root=".", schema="geo", units=[*extra, unit])))


def test_spatial_function_is_reported_as_needing_postgis():
    conversion = _convert("CREATE VIEW v AS SELECT SDO_GEOM.SDO_AREA(s.shape, 0.005) AS a FROM sites s")
    (item,) = conversion.unconverted
    assert "SDO_GEOM" in item.construct and "needs PostGIS" in item.message
    assert "MIGRATOR_UNCONVERTED" in conversion.output  # it cannot deploy


def test_own_type_named_like_a_spatial_type_wins_over_the_public_synonym():
    text = "CREATE TYPE sdo_point_type AS OBJECT (a NUMBER);"
    own = Unit(
        "type:geo.sdo_point_type",
        UnitKind.TYPE,
        "geo",
        "sdo_point_type",
        text,
        SourceSpan("t.sql", 1, 1, 0, len(text)),
        "utf-8",
    )
    conversion = _convert("CREATE VIEW v AS SELECT SDO_POINT_TYPE(1) AS p FROM dual", extra=(own,))
    assert "mdsys" not in conversion.output.lower() and "sdo_point_type" in conversion.output


OUTER = """
CREATE TYPE addr_t AS OBJECT (street VARCHAR2(30), country_id CHAR(2));
/
CREATE TABLE countries (country_id CHAR(2) PRIMARY KEY, country_name VARCHAR2(30));
CREATE TABLE people (id NUMBER PRIMARY KEY, addr addr_t);
INSERT INTO countries VALUES ('FR', 'France');
INSERT INTO people VALUES (1, addr_t('rue A', 'FR'));
INSERT INTO people VALUES (2, addr_t('Main St', 'US'));
INSERT INTO people VALUES (3, NULL);
CREATE OR REPLACE VIEW people_country AS
  SELECT p.id, p.addr.street AS street, co.country_name
    FROM countries co, people p
   WHERE p.addr.country_id = co.country_id(+);
"""


def test_object_attributes_through_the_alias_and_an_outer_join_on_them(pg_dsn, tmp_path):
    """The outer-joined table first in FROM: each row of ``people`` once, the country where it
    matches (sqlglot's rewrite alone repeated ``people`` as a CROSS JOIN)."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "ppl", {"people.sql": OUTER})
        rows = conn.execute("SELECT id, street, country_name FROM people_country ORDER BY 1").fetchall()
        assert rows == [(1, "rue A", "France"), (2, "Main St", None), (3, None, None)]


def test_object_attribute_rule_off_refuses_the_view():
    text = "CREATE TABLE people (id NUMBER, addr addr_t)"
    table = Unit(
        "table:geo.people", UnitKind.TABLE, "geo", "people", text, SourceSpan("t.sql", 1, 1, 0, len(text)), "utf-8"
    )
    unit = Unit(
        "view:geo.v",
        UnitKind.VIEW,
        "geo",
        "v",
        "CREATE VIEW v AS SELECT p.addr.street s FROM people p",
        SourceSpan("g.sql", 1, 1, 0, 10),
        "utf-8",
    )
    source = SourceSet(root=".", schema="geo", units=[table, unit])
    on = convert_unit(unit, prepare_context(source))
    assert "(p.addr).street" in on.output
    off = convert_unit(unit, prepare_context(source, disabled_rules=frozenset({"expr.object_attribute"})))
    assert "MIGRATOR_UNCONVERTED" in off.output


STAMPS = """
CREATE TABLE stamps (id NUMBER PRIMARY KEY, at TIMESTAMP);
INSERT INTO stamps VALUES (1, TO_TIMESTAMP('04-FEB-2021 13.20.22.245676861', 'DD-MON-YYYY HH24.MI.SS.FF'));
INSERT INTO stamps VALUES (2, TO_TIMESTAMP('04-FEB-2021 13.20.22.5', 'DD-MON-YYYY HH24.MI.SS.FF'));
"""


def test_to_timestamp_with_nine_fraction_digits_stores_microseconds_rounded(pg_dsn, tmp_path):
    """Oracle reads nine fractional digits with FF and rounds them into a TIMESTAMP(6) column."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "ts", {"stamps.sql": STAMPS})
        rows = conn.execute("SELECT to_char(at, 'YYYY-MM-DD HH24:MI:SS.US') FROM stamps ORDER BY id").fetchall()
        assert rows == [("2021-02-04 13:20:22.245677",), ("2021-02-04 13:20:22.500000",)]


REVIEWS = """
CREATE TABLE products (
  product_id NUMBER PRIMARY KEY,
  name       VARCHAR2(20),
  details    BLOB CHECK (details IS JSON)
);
CREATE OR REPLACE VIEW product_ratings AS
  SELECT p.name, r.stars, r.note
    FROM products p,
         JSON_TABLE(p.details, '$'
           COLUMNS (NESTED PATH '$.reviews[*]'
                    COLUMNS (stars INTEGER PATH '$.stars', note VARCHAR2(100) PATH '$.note'))) r;
"""


def test_json_table_over_a_blob_column_reads_utf8(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        if conn.info.server_version < 170000:  # JSON_TABLE arrived in PostgreSQL 17
            conversion = _convert(REVIEWS.split(";")[1] + ";", name="product_ratings")
            assert "convert_from(p.details, 'UTF8')" in conversion.output.replace("CONVERT_FROM", "convert_from")
            return
        deploy_schema(conn, tmp_path / "rv", {"reviews.sql": REVIEWS})
        doc = '{"reviews": [{"stars": 5, "note": "très bien"}, {"stars": 2}]}'.encode()
        conn.execute("INSERT INTO products VALUES (1, 'lamp', %s)", (doc,))
        rows = conn.execute("SELECT name, stars, note FROM product_ratings ORDER BY stars").fetchall()
        assert rows == [("lamp", 2, None), ("lamp", 5, "très bien")]
