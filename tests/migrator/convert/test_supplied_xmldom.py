"""Reading a parsed XML tree with DBMS_XMLPARSER, DBMS_XMLDOM and DBMS_XSLPROCESSOR, converted and
run on PostgreSQL (a server built with libxml: see test_supplied_text_xml_exec): parse a buffer,
the document element, child nodes with their names, types and values, elements by tag name from
the document and from an element (descendants only), XPath selection from the document and,
relative, from an element, VALUEOF's string value. The members that change the tree or need a
node's place in it are reported, not converted (Oracle Database PL/SQL Packages and Types
Reference, DBMS_XMLDOM, DBMS_XMLPARSER, DBMS_XSLPROCESSOR)."""

from __future__ import annotations

import psycopg
import pytest

from tests.migrator.convert.test_supplied_exec import deploy
from tests.migrator.convert.test_supplied_text_xml_exec import (
    xml_db,  # noqa: F401  (the module's database on a server with libxml)
    xml_engine,  # noqa: F401
)
from tests.migrator.plsql_support import convert_all, split_sql

READER = """
CREATE OR REPLACE FUNCTION read_order (p_xml IN VARCHAR2) RETURN VARCHAR2 IS
  l_parser  DBMS_XMLPARSER.PARSER := DBMS_XMLPARSER.NEWPARSER;
  l_doc     DBMS_XMLDOM.DOMDOCUMENT;
  l_root    DBMS_XMLDOM.DOMNODE;
  l_items   DBMS_XMLDOM.DOMNODELIST;
  l_kids    DBMS_XMLDOM.DOMNODELIST;
  l_node    DBMS_XMLDOM.DOMNODE;
  l_value   VARCHAR2(200);
  l_out     VARCHAR2(4000);
BEGIN
  DBMS_XMLPARSER.PARSEBUFFER(l_parser, p_xml);
  l_doc := DBMS_XMLPARSER.GETDOCUMENT(l_parser);
  DBMS_XMLPARSER.FREEPARSER(l_parser);
  l_root := DBMS_XMLDOM.MAKENODE(DBMS_XMLDOM.GETDOCUMENTELEMENT(l_doc));
  l_out := DBMS_XMLDOM.GETNODENAME(DBMS_XMLDOM.MAKENODE(l_doc)) || '>' || DBMS_XMLDOM.GETNODENAME(l_root);
  l_kids := DBMS_XMLDOM.GETCHILDNODES(l_root);
  FOR i IN 0 .. DBMS_XMLDOM.GETLENGTH(l_kids) - 1 LOOP
    l_node := DBMS_XMLDOM.ITEM(l_kids, i);
    l_out := l_out || ' [' || DBMS_XMLDOM.GETNODETYPE(l_node) || ':' || DBMS_XMLDOM.GETNODENAME(l_node)
             || '=' || NVL(DBMS_XMLDOM.GETNODEVALUE(l_node), '-') || ']';
  END LOOP;
  l_items := DBMS_XMLDOM.GETELEMENTSBYTAGNAME(l_doc, 'item');
  l_out := l_out || ' items=' || DBMS_XMLDOM.GETLENGTH(l_items);
  FOR i IN 0 .. DBMS_XMLDOM.GETLENGTH(l_items) - 1 LOOP
    DBMS_XSLPROCESSOR.VALUEOF(DBMS_XMLDOM.ITEM(l_items, i), '@sku', l_value);
    l_out := l_out || ' ' || l_value;
    DBMS_XSLPROCESSOR.VALUEOF(DBMS_XMLDOM.ITEM(l_items, i), 'qty', l_value);
    l_out := l_out || '*' || l_value;
  END LOOP;
  l_out := l_out || ' order-items=' || DBMS_XMLDOM.GETLENGTH(DBMS_XMLDOM.GETELEMENTSBYTAGNAME(DBMS_XMLDOM.GETDOCUMENTELEMENT(l_doc), 'order'));
  l_node := DBMS_XSLPROCESSOR.SELECTSINGLENODE(DBMS_XMLDOM.MAKENODE(l_doc), '/order/note');
  l_out := l_out || ' note=' || DBMS_XMLDOM.GETNODEVALUE(DBMS_XMLDOM.GETFIRSTCHILD(l_node));
  IF DBMS_XMLDOM.ISNULL(DBMS_XSLPROCESSOR.SELECTSINGLENODE(l_root, 'missing')) THEN
    l_out := l_out || ' none';
  END IF;
  l_out := l_out || ' has=' || CASE WHEN DBMS_XMLDOM.HASCHILDNODES(l_node) THEN 'y' ELSE 'n' END;
  DBMS_XMLDOM.FREEDOCUMENT(l_doc);
  RETURN l_out;
END read_order;
/
"""

DOC = '<order id="7"><item sku="A1"><qty>2</qty></item><!--gift--><item sku="B&amp;2"><qty>5</qty></item><note>fast &lt;!&gt;</note></order>'


def test_a_parsed_document_is_read_as_oracle_reads_it(xml_db):  # noqa: F811
    deploy(xml_db, READER)
    got = xml_db.execute("SELECT s.read_order(%s)", (DOC,)).fetchone()[0]
    assert got == (
        "#document>order [1:item=-] [8:#comment=gift] [1:item=-] [1:note=-] items=2 A1*2 B&2*5 "
        "order-items=0 note=fast <!> none has=y"
    )
    with pytest.raises(psycopg.Error, match="ORA-31011"):
        xml_db.execute("SELECT s.read_order('<order><item></order>')")


def test_changing_the_tree_is_reported():
    oracle = """
CREATE OR REPLACE PROCEDURE add_child (p_doc IN DBMS_XMLDOM.DOMDOCUMENT) IS
  l_elem DBMS_XMLDOM.DOMELEMENT;
  l_node DBMS_XMLDOM.DOMNODE;
BEGIN
  l_elem := DBMS_XMLDOM.CREATEELEMENT(p_doc, 'x');
  l_node := DBMS_XMLDOM.APPENDCHILD(DBMS_XMLDOM.MAKENODE(p_doc), DBMS_XMLDOM.MAKENODE(l_elem));
END add_child;
/
"""
    (_, text, unconverted, _, _) = convert_all(split_sql(oracle))[0]
    assert [u.construct for u in unconverted] == [
        "needs an Oracle-supplied package with no PostgreSQL equivalent: DBMS_XMLDOM beyond reading a parsed "
        "tree (changes to it, parent and sibling navigation)"
    ]
    assert "CREATEELEMENT" in unconverted[0].message.upper() and "APPENDCHILD" in unconverted[0].message.upper()
