"""Forms real code bases use, run on PostgreSQL: a cursor whose query reads the enclosing routine's
parameters and variables, with a record of its %ROWTYPE (the view that stands for the row type takes
them as typed NULLs, as it takes the cursor's own parameters); collection methods called with an
empty argument list (`COUNT()`), which Oracle accepts; XMLTYPE's value members on an XML expression
in SQL (needs a server with libxml: skipped where there is none, as the XML tests are)."""

from __future__ import annotations

import psycopg

from tests.migrator.convert.test_plsql_exec_types import deploy_schema
from tests.migrator.convert.test_supplied_exec import db  # noqa: F401  (xml_db's fixture chain)
from tests.migrator.convert.test_supplied_text_xml_exec import xml_db, xml_engine  # noqa: F401

ITEMS = """
CREATE TABLE items (id NUMBER PRIMARY KEY, name VARCHAR2(30), qty NUMBER);
INSERT INTO items VALUES (1, 'apple', 3);
INSERT INTO items VALUES (2, 'apricot', 0);
INSERT INTO items VALUES (3, 'banana', 7);
CREATE OR REPLACE FUNCTION first_like (p_prefix IN VARCHAR2, p_min IN NUMBER := 0) RETURN VARCHAR2 IS
  l_limit NUMBER := p_min;
  CURSOR c_items (p_order IN VARCHAR2) IS
    SELECT name, qty FROM items
     WHERE name LIKE p_prefix || '%' AND qty >= l_limit
     ORDER BY CASE p_order WHEN 'D' THEN -id ELSE id END;
  r c_items%ROWTYPE;
BEGIN
  OPEN c_items('D');
  FETCH c_items INTO r;
  CLOSE c_items;
  RETURN r.name || ':' || r.qty;
END first_like;
/
"""


def test_cursor_reading_the_routine_s_parameters_has_a_row_type(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "items", {"items.sql": ITEMS})
        assert conn.execute("SELECT first_like('ap')").fetchone()[0] == "apricot:0"
        assert conn.execute("SELECT first_like('ap', 1)").fetchone()[0] == "apple:3"
        assert conn.execute("SELECT first_like('b', 8)").fetchone()[0] == ":"


COUNTS = """
CREATE OR REPLACE FUNCTION sizes RETURN VARCHAR2 IS
  TYPE t_map IS TABLE OF VARCHAR2(10) INDEX BY VARCHAR2(10);
  TYPE t_list IS TABLE OF NUMBER;
  l_map  t_map;
  l_list t_list := t_list(4, 5, 6);
BEGIN
  l_map('a') := 'x';
  IF l_map.COUNT () <> 0 AND l_list.COUNT() = 3 THEN
    RETURN l_map.COUNT() || '/' || l_list.FIRST() || '/' || l_list.LAST ();
  END IF;
  RETURN 'none';
END sizes;
/
"""


def test_collection_methods_with_an_empty_argument_list(pg_dsn, tmp_path):
    """`coll.COUNT()` (and FIRST(), LAST()) with empty parentheses, which Oracle accepts."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "sizes", {"sizes.sql": COUNTS})
        assert conn.execute("SELECT sizes()").fetchone()[0] == "1/1/3"


def test_xml_value_members_on_an_xml_expression_in_sql(xml_db):  # noqa: F811
    """`XMLELEMENT(...).getClobVal()` / `XMLTYPE(...).getNumberVal()` in a SQL statement: the value
    of the XML the expression builds, as on an XMLTYPE variable."""
    from migrator.convert.sql.convert import convert_expression
    from tests.migrator.sql_catalog import make_ctx

    ctx = make_ctx()
    sql = convert_expression(
        "XMLELEMENT(NAME blk, XMLATTRIBUTES('a&b' AS nm), 'x<y').getClobVal()"
        " || XMLTYPE('<n>4</n>').extract('/n/text()').getNumberVal() || XMLTYPE('<n>2</n>').getStringVal()",
        ctx,
    )
    assert not ctx.unconverted_items and "plsql.xmltype" in ctx.applied_rules, sql
    assert xml_db.execute(f"SELECT {sql}").fetchone()[0] == '<blk nm="a&amp;b">x&lt;y</blk>4<n>2</n>'


def test_a_user_defined_aggregate_is_reported_precisely(tmp_path):
    """CREATE FUNCTION ... AGGREGATE USING impl_type (an ODCIAggregate implementation): parsed, and
    reported as what it is, with the implementation type named (not a parse error)."""
    from migrator.convert.dispatch import convert_unit, prepare_context
    from migrator.source.reader import read_schema_dir

    folder = tmp_path / "agg"
    folder.mkdir()
    (folder / "agg.sql").write_text(
        "CREATE OR REPLACE FUNCTION total_span (p_input IN INTERVAL DAY TO SECOND)\n"
        "  RETURN INTERVAL DAY TO SECOND PARALLEL_ENABLE AGGREGATE USING span_impl;\n/\n",
        encoding="utf-8",
    )
    source = read_schema_dir(folder)
    conversion = convert_unit(source.units[0], prepare_context(source))
    assert conversion.error is None
    assert [(u.construct, u.message.split(" (")[0]) for u in conversion.unconverted] == [
        ("user-defined aggregate", "total_span: AGGREGATE USING span_impl")
    ]
