"""The PL/SQL Web Toolkit's page buffer (HTP, HTF, OWA_UTIL, OWA) converted and run on PostgreSQL:
a procedure that renders a page (MIME header, escaped text, numbers, PRN without a line feed) and
OWA_UTIL.SHOWPAGE reading it back through DBMS_OUTPUT; the CGI environment a gateway passes with
OWA.INIT_CGI_ENV; the buffer is session state that a rollback does not undo; the tag generators
the library does not hold are still reported per call site."""

from __future__ import annotations

import psycopg
import pytest

from harness.engines.postgres import scratch_database
from tests.migrator.convert.test_oracompat_packages import deploy_library
from tests.migrator.convert.test_supplied_exec import deploy, notices
from tests.migrator.plsql_support import convert_all, split_sql

PAGE = """
CREATE OR REPLACE PACKAGE page_pkg AS
  PROCEDURE render (p_title IN VARCHAR2, p_count IN NUMBER);
  FUNCTION agent RETURN VARCHAR2;
END page_pkg;
/
CREATE OR REPLACE PACKAGE BODY page_pkg AS
  PROCEDURE render (p_title IN VARCHAR2, p_count IN NUMBER) IS
  BEGIN
    OWA_UTIL.MIME_HEADER('text/html', FALSE, 'UTF-8');
    OWA_UTIL.HTTP_HEADER_CLOSE;
    HTP.P('<h1>' || HTF.ESCAPE_SC(p_title) || '</h1>');
    HTP.PRN('<p>count: ');
    HTP.PRN(p_count);
    HTP.PRINT('</p>');
    HTP.PS('a < b & "c"');
    HTP.P;
  END render;

  FUNCTION agent RETURN VARCHAR2 IS
  BEGIN
    RETURN NVL(OWA_UTIL.GET_CGI_ENV('http_user_agent'), 'none');
  END agent;
END page_pkg;
/
CREATE OR REPLACE PROCEDURE serve (p_agent IN VARCHAR2) IS
  l_names OWA.VC_ARR;
  l_values OWA.VC_ARR;
BEGIN
  l_names(1) := 'REQUEST_METHOD';
  l_values(1) := 'GET';
  l_names(2) := 'HTTP_USER_AGENT';
  l_values(2) := p_agent;
  OWA.INIT_CGI_ENV(2, l_names, l_values);
  HTP.INIT;
  HTP.P(OWA_UTIL.GET_CGI_ENV('REQUEST_METHOD') || ' from ' || page_pkg.agent || OWA.NL_CHAR || 'end');
END serve;
/
"""


@pytest.fixture(scope="module")
def db(pg_engine):
    with scratch_database(pg_engine, prefix="webtk") as dsn, psycopg.connect(dsn, autocommit=True) as conn:
        deploy_library(conn)
        conn.execute("CREATE SCHEMA IF NOT EXISTS s; SET search_path = s, oracompat, public")
        deploy(conn, PAGE)
        yield conn


def test_a_rendered_page_is_read_back_as_oracle_buffers_it(db):
    db.execute("SELECT oracompat.htp_init()")
    db.execute("CALL page_pkg.render('Tom & <Jerry>', 42)")
    page = db.execute("SELECT oracompat.owa_get_page_text()").fetchone()[0]
    assert page == (
        "Content-type: text/html; charset=UTF-8\n\n"
        "<h1>Tom &amp; &lt;Jerry&gt;</h1>\n"
        "<p>count: 42</p>\n"
        "a &lt; b &amp; &quot;c&quot;\n"
        "\n"
    )
    got = notices(db)
    db.execute("DO $$ BEGIN PERFORM oracompat.owa_util_showpage(); END $$")
    assert got == [
        "Content-type: text/html; charset=UTF-8",
        "",
        "<h1>Tom &amp; &lt;Jerry&gt;</h1>",
        "<p>count: 42</p>",
        "a &lt; b &amp; &quot;c&quot;",
        "",
    ]
    assert db.execute("SELECT oracompat.owa_get_page_text()").fetchone()[0] is None  # SHOWPAGE empties it


def test_the_cgi_environment_and_a_rollback_that_keeps_the_page(db):
    assert db.execute("SELECT page_pkg.agent()").fetchone()[0] in ("none", "curl/8")
    with db.transaction():
        db.execute("CALL s.serve('curl/8')")
        assert db.execute("SELECT page_pkg.agent()").fetchone()[0] == "curl/8"
        with pytest.raises(psycopg.errors.DivisionByZero):
            with db.transaction():
                db.execute("CALL page_pkg.render('x', 1)")
                db.execute("SELECT 1 / 0")
    page = db.execute("SELECT oracompat.owa_get_page_text()").fetchone()[0]
    # package state is not transactional: the rolled-back render's output is still in the page
    assert page.startswith("GET from curl/8\nend\nContent-type: text/html; charset=UTF-8\n\n<h1>x</h1>\n")


def test_tag_generators_without_a_conversion_are_reported_per_call_site():
    oracle = """
CREATE OR REPLACE PROCEDURE heading (p_text IN VARCHAR2) IS
BEGIN
  HTP.P(HTF.ESCAPE_SC(p_text));
  HTP.HTMLOPEN;
  HTP.P(HTF.BOLD(p_text));
END heading;
/
"""
    (_, text, unconverted, _, _) = convert_all(split_sql(oracle))[0]
    assert [(u.construct, u.message) for u in unconverted] == [
        (
            "needs an Oracle-supplied package with no PostgreSQL equivalent: HTP beyond the page buffer "
            "(PRINT, P, PRN, PRINTS, PS, INIT)",
            "1 call site(s): line 4 HTP.HTMLOPEN",
        ),
        (
            "needs an Oracle-supplied package with no PostgreSQL equivalent: HTF beyond ESCAPE_SC",
            "1 call site(s): line 5 HTF.BOLD",
        ),
    ]
    assert "oracompat.htf_escape_sc" in text
