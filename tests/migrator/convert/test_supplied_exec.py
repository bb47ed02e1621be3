"""Calls into Oracle-supplied packages, converted and run on a real PostgreSQL as the execution role:
functions in SQL (rule expr.supplied_package), SYS_CONTEXT (expr.sys_context), procedures with IN
OUT / OUT arguments, package types and exceptions, error stacks (plsql.supplied_package), and every
member of the table in `migrator.convert.supplied`; packages without an equivalent are reported once
per unit with their call sites (and the unit cannot deploy)."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from harness.engines.postgres import scratch_database
from migrator.convert import supplied
from migrator.convert.context import MARKER_TOKEN
from migrator.convert.sql.convert import convert_expression
from tests.migrator.convert.test_oracompat_packages import deploy_library
from tests.migrator.plsql_support import convert_all, split_sql
from tests.migrator.sql_catalog import make_ctx

SETUP = """
CREATE SCHEMA IF NOT EXISTS s;
SET search_path = s, oracompat, public;
CREATE TABLE s.emp (id integer PRIMARY KEY, name varchar(40), salary numeric(10,2), dept integer);
INSERT INTO s.emp VALUES (1, 'Ann', 1000, 10), (2, 'Bob', 2000, 10), (3, 'Cid', 3000, 20);
"""


@pytest.fixture(scope="module")
def db(pg_engine):
    with scratch_database(pg_engine, prefix="suppl") as dsn, psycopg.connect(dsn, autocommit=True) as conn:
        deploy_library(conn)
        conn.execute(SETUP)
        yield conn


def deploy(conn, oracle: str) -> None:
    for unit, text, unconverted, _, _ in convert_all(split_sql(oracle)):
        assert not unconverted, (unit.name, unconverted, text)
        conn.execute(text)


def notices(conn) -> list[str]:
    got: list[str] = []
    conn.add_notice_handler(lambda d: got.append(d.message_primary))
    return got


@pytest.mark.parametrize(
    ("oracle", "expected"),
    [
        ("DBMS_LOB.GETLENGTH('abc')", 3),
        ("DBMS_LOB.SUBSTR('abcdef', 3, 2)", "bcd"),
        ("DBMS_LOB.SUBSTR(lob_loc => 'abcdef', offset => 5)", "ef"),
        ("SYS.DBMS_LOB.INSTR('abcabc', 'c', 1, 2)", 6),
        ("DBMS_LOB.COMPARE('abc', 'abd')", -1),
        ("UTL_RAW.CAST_TO_VARCHAR2(UTL_RAW.CAST_TO_RAW('hi'))", "hi"),
        ("UTL_RAW.LENGTH(UTL_RAW.CONCAT(HEXTORAW('01'), HEXTORAW('0203')))", 3),
        ("RAWTOHEX(UTL_RAW.BIT_XOR(HEXTORAW('0F0F'), HEXTORAW('FF')))", "F00F"),
        ("UTL_RAW.COMPARE(HEXTORAW('0102'), HEXTORAW('0109'))", 2),
        ("DBMS_ASSERT.ENQUOTE_NAME('emp')", '"EMP"'),
        ("DBMS_ASSERT.SIMPLE_SQL_NAME('emp')", "emp"),
        ("LENGTH(DBMS_RANDOM.STRING('U', 5))", 5),
        ("CASE WHEN DBMS_RANDOM.VALUE(5, 7) >= 5 AND DBMS_RANDOM.VALUE(5, 7) < 7 THEN 1 END", 1),
        ("CASE WHEN DBMS_RANDOM.VALUE BETWEEN 0 AND 1 THEN 1 END", 1),  # never RANDOM(low, high)
        ("DBMS_LOB.LOBMAXSIZE", 18446744073709551615),
        ("DBMS_SQL.NATIVE", 1),
    ],
)
def test_supplied_functions_match_oracle(db, oracle, expected):
    ctx = make_ctx()
    sql = convert_expression(oracle, ctx)
    assert not ctx.unconverted_items and "expr.supplied_package" in ctx.applied_rules, sql
    assert db.execute(f"SELECT {sql}").fetchone()[0] == expected


def test_sys_context_reads_the_session(db):
    ctx = make_ctx()
    sql = convert_expression("SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA') || ' ' || USERENV('LANG')", ctx)
    assert "expr.sys_context" in ctx.applied_rules
    assert db.execute(f"SELECT {sql}").fetchone()[0] == "S US"
    # an attribute without a PostgreSQL meaning is reported, never guessed
    ctx = make_ctx()
    assert MARKER_TOKEN in convert_expression("SYS_CONTEXT('USERENV', 'OS_USER')", ctx)
    assert [u.construct for u in ctx.unconverted_items] == ["SYS_CONTEXT"]


def test_lob_and_dbms_sql_procedures(db):
    deploy(
        db,
        """
CREATE OR REPLACE PROCEDURE lob_and_sql (p_id IN NUMBER, p_out OUT VARCHAR2) IS
  v_clob  CLOB;
  v_amt   NUMBER := 3;
  v_buf   VARCHAR2(100);
  v_names DBMS_UTILITY.UNCL_ARRAY;
  v_count BINARY_INTEGER;
  c       INTEGER;
  v_rows  INTEGER;
BEGIN
  DBMS_LOB.CREATETEMPORARY(v_clob, TRUE, DBMS_LOB.CALL);
  DBMS_LOB.APPEND(v_clob, 'abcdef');
  DBMS_LOB.ERASE(v_clob, v_amt, 2);
  DBMS_LOB.READ(lob_loc => v_clob, amount => v_amt, offset => 1, buffer => v_buf);
  p_out := '[' || v_buf || '] ' || v_amt;
  DBMS_UTILITY.COMMA_TO_TABLE('emp,dept', v_count, v_names);
  c := DBMS_SQL.OPEN_CURSOR;
  DBMS_SQL.PARSE(c, 'SELECT name FROM emp WHERE id >= :id ORDER BY id', DBMS_SQL.NATIVE);
  DBMS_SQL.BIND_VARIABLE(c, ':id', p_id);
  DBMS_SQL.DEFINE_COLUMN(c, 1, v_buf, 100);
  v_rows := DBMS_SQL.EXECUTE(c);
  WHILE DBMS_SQL.FETCH_ROWS(c) > 0 LOOP
    DBMS_SQL.COLUMN_VALUE(c, 1, v_buf);
    p_out := p_out || ' ' || v_buf;
  END LOOP;
  DBMS_SQL.CLOSE_CURSOR(c);
  p_out := p_out || ' ' || v_names(v_count) || ' ' || v_names.COUNT || ' ' || DBMS_LOB.GETLENGTH(v_clob);
END lob_and_sql;
/
""",
    )
    got = db.execute("CALL s.lob_and_sql(2, NULL)").fetchone()[0]
    # ERASE(3 from 2) blanks 'bcd'; READ(3 from 1) reads 'a  '; COMMA_TO_TABLE leaves a NULL at
    # tablen + 1, so COUNT is 3
    assert got == "[a  ] 3 Bob Cid dept 3 6"


def test_package_exceptions_and_error_stacks(db):
    deploy(
        db,
        """
CREATE OR REPLACE FUNCTION checked_name (p_name IN VARCHAR2) RETURN VARCHAR2 IS
BEGIN
  RETURN DBMS_ASSERT.SIMPLE_SQL_NAME(p_name);
EXCEPTION
  WHEN DBMS_ASSERT.INVALID_SQL_NAME THEN
    RETURN 'invalid: ' || DBMS_UTILITY.FORMAT_ERROR_STACK;
END checked_name;
/
CREATE OR REPLACE PROCEDURE log_error IS
BEGIN
  DBMS_OUTPUT.PUT_LINE('logged ' || DBMS_UTILITY.FORMAT_ERROR_STACK);
END log_error;
/
CREATE OR REPLACE PROCEDURE fails IS
BEGIN
  RAISE_APPLICATION_ERROR(-20042, 'boom');
EXCEPTION
  WHEN OTHERS THEN
    log_error;
    DBMS_OUTPUT.PUT_LINE(SUBSTR(DBMS_UTILITY.FORMAT_ERROR_BACKTRACE, 1, 22));
END fails;
/
""",
    )
    assert db.execute("SELECT s.checked_name('emp_1')").fetchone()[0] == "emp_1"
    assert db.execute("SELECT s.checked_name('1 x')").fetchone()[0] == "invalid: ORA-44003: invalid SQL name\n"
    got = notices(db)
    db.execute("CALL s.fails()")
    # the handler publishes its error: a routine it calls reads it, as in Oracle
    assert got == ["logged ORA-20042: boom\n", 'ORA-06512: at "FAILS",']


def test_packages_without_an_equivalent_are_reported_once_with_their_call_sites(db):
    oracle = """
CREATE OR REPLACE PROCEDURE write_log (p_msg IN VARCHAR2) IS
  f UTL_TCP.CONNECTION;
BEGIN
  f := UTL_TCP.OPEN_CONNECTION('loghost', 514);
  UTL_TCP.FLUSH(f);
  SYS.UTL_TCP.CLOSE_CONNECTION(f);
  UTL_MAIL.SEND(sender => 'app@example.com', recipients => 'ops@example.com', message => p_msg);
END write_log;
/
"""
    (unit, text, unconverted, _, _) = convert_all(split_sql(oracle))[0]
    assert [(u.construct, u.line) for u in unconverted] == [
        ("needs an Oracle-supplied package with no PostgreSQL equivalent: UTL_TCP", 2),
        ("needs an Oracle-supplied package with no PostgreSQL equivalent: UTL_MAIL", 7),
    ]
    assert unconverted[0].message == (
        "4 call site(s): line 2 UTL_TCP.CONNECTION, line 4 UTL_TCP.OPEN_CONNECTION, line 5 UTL_TCP.FLUSH, "
        "line 6 SYS.UTL_TCP.CLOSE_CONNECTION"
    )
    assert text.count(MARKER_TOKEN) >= 10  # every call site marked (two tokens per marker)
    with pytest.raises(psycopg.Error):  # PostgreSQL refuses the marker: the unit cannot deploy
        db.execute(text)


def test_clob_to_blob_with_named_in_out_arguments(db):
    golden = Path(__file__).resolve().parents[2] / "golden" / "plsql" / "supplied_lob_convert.ora.sql"
    deploy(db, golden.read_text(encoding="utf-8"))
    assert db.execute("SELECT s.clob_to_blob('hé!')").fetchone()[0] == b"h\xc3\xa9!"
    with pytest.raises(psycopg.errors.NumericValueOutOfRange):  # a NULL CLOB is no LOB to convert
        db.execute("SELECT s.clob_to_blob(NULL)")


def test_bfile_operations_convert_to_the_library(db):
    """DBMS_LOB's BFILE members and BFILENAME read server files through the file gate, as UTL_FILE
    does (they run in test_utl_file_exec.py): nothing reported, every call a library function."""
    oracle = """
CREATE OR REPLACE FUNCTION file_blob (p_file IN VARCHAR2) RETURN BLOB IS
  l_bfile BFILE := BFILENAME('DIR', p_file);
  l_blob  BLOB;
BEGIN
  DBMS_LOB.CREATETEMPORARY(l_blob, TRUE);
  DBMS_LOB.FILEOPEN(l_bfile, DBMS_LOB.FILE_READONLY);
  DBMS_LOB.LOADFROMFILE(l_blob, l_bfile, DBMS_LOB.GETLENGTH(l_bfile));
  DBMS_LOB.FILECLOSE(l_bfile);
  RETURN l_blob;
END file_blob;
/
"""
    (unit, text, unconverted, _, _) = convert_all(split_sql(oracle))[0]
    assert unconverted == []
    for call in ("oracompat.bfilename(", "oracompat.dbms_lob_fileopen(", "oracompat.dbms_lob_loadfromfile("):
        assert call in text
    assert "l_bfile oracompat.bfile" in text


VARIABLES = """
  v_clob CLOB := 'abcdef';
  v_blob BLOB := HEXTORAW('0102');
  v_n NUMBER := 2;
  v_s VARCHAR2(4000) := 'x';
  v_raw RAW(100) := HEXTORAW('0A0B');
  v_c INTEGER;
  v_tab DBMS_UTILITY.UNCL_ARRAY;
  v_o INTEGER := 1;
  v_i INTEGER := 0;
  v_w INTEGER;
  v_desc DBMS_SQL.DESC_TAB;
  v_vc OWA.VC_ARR;
  v_xp DBMS_XMLPARSER.PARSER;
  v_doc DBMS_XMLDOM.DOMDOCUMENT;
  v_node DBMS_XMLDOM.DOMNODE;
  v_vc2 APEX_APPLICATION_GLOBAL.VC_ARR2;
  v_x DBMS_XMLGEN.CTXHANDLE := DBMS_XMLGEN.NEWCONTEXT('SELECT 1 AS x FROM dual');
  v_e DBMS_XMLGEN.CTXHANDLE := DBMS_XMLGEN.NEWCONTEXT('SELECT 1 AS x FROM dual WHERE 1 = 0');
"""


def _call(m: supplied.Member) -> str:
    call = f"{m.label}({m.example})" if m.example else m.label
    return f"{call};" if m.kind == "PROCEDURE" else f"IF {call} IS NULL THEN NULL; END IF;"


# UTL_FILE's and DBMS_LOB's BFILE members need a directory and files: they run in
# test_utl_file_exec.py, each of them; DBMS_METADATA.GET_DDL needs the source a run records
# (test_dbms_metadata_exec.py)
_FILE_MEMBERS = {"FILEOPEN", "FILECLOSE", "FILECLOSEALL", "FILEISOPEN", "FILEEXISTS", "FILEGETNAME", "LOADFROMFILE"}
_FILE_MEMBERS |= {"LOADBLOBFROMFILE", "LOADCLOBFROMFILE"}


@pytest.mark.parametrize(
    "member",
    [m for m in supplied.MEMBERS if m.package not in ("UTL_FILE", "DBMS_METADATA") and m.name not in _FILE_MEMBERS],
    ids=lambda m: m.label,
)
def test_every_member_converts_deploys_and_runs(db, member):
    name = f"try_{member.package}_{member.name}".lower()
    deploy(
        db,
        f"""
CREATE OR REPLACE PROCEDURE {name} IS
{VARIABLES}
BEGIN
  v_c := DBMS_SQL.OPEN_CURSOR;
  DBMS_SQL.PARSE(v_c, 'SELECT :x FROM dual', DBMS_SQL.NATIVE);
  DBMS_SQL.BIND_VARIABLE(v_c, ':x', 1);
  v_n := DBMS_SQL.EXECUTE(v_c);
  v_n := DBMS_SQL.FETCH_ROWS(v_c);
  DBMS_UTILITY.COMMA_TO_TABLE('a,b', v_n, v_tab);
  v_n := 2;
  {_call(member)}
END {name};
/
""",
    )
    if member.label in _PARSES_XML and not _libxml(db):
        return  # deployed; parsing needs a server built with libxml (test_supplied_xmldom runs them there)
    db.execute(f"CALL s.{name}()")


_PARSES_XML = ("DBMS_XMLDOM.NEWDOMDOCUMENT", "DBMS_XMLPARSER.PARSEBUFFER", "DBMS_XMLPARSER.PARSECLOB")


def _libxml(conn) -> bool:
    try:
        with conn.transaction():
            conn.execute("SELECT XMLPARSE(DOCUMENT '<a/>')")
    except psycopg.errors.FeatureNotSupported:
        return False
    return True


def test_references_from_a_parse_s_tokens_are_those_read_from_the_text():
    from migrator.source.lexer import tokenize

    text = (
        "BEGIN\n  -- UTL_FILE.FOPEN in a comment\n  f := UTL_FILE.FOPEN('D', 'x', 'w');\n"
        "  DBMS_PIPE.PACK_MESSAGE(1);\n  x := 'DBMS_ALERT.SIGNAL';\nEND;"
    )
    found = supplied.references(text)
    assert found and supplied.references(text, tokens=tokenize(text)) == found
    assert supplied.redesign_reports(text, tokens=tokenize(text)) == supplied.redesign_reports(text)


def test_dbms_sql_describe_columns(db):
    """DESCRIBE_COLUMNS on a parsed query (with a bind not yet bound): the count and, per column,
    Oracle's type code, size, upper-case name and NUMBER precision/scale, read as desc_t(i).field
    in a loop, the way generic export routines use it."""
    deploy(
        db,
        """
CREATE OR REPLACE FUNCTION describe_emp RETURN VARCHAR2 IS
  l_cur  INTEGER := DBMS_SQL.OPEN_CURSOR;
  l_cnt  INTEGER;
  l_desc DBMS_SQL.DESC_TAB;
  l_out  VARCHAR2(4000);
BEGIN
  DBMS_SQL.PARSE(l_cur, 'SELECT id, name, salary, hired, memo FROM emp_desc WHERE id > :lo', DBMS_SQL.NATIVE);
  DBMS_SQL.DESCRIBE_COLUMNS(l_cur, l_cnt, l_desc);
  FOR i IN 1 .. l_cnt LOOP
    l_out := l_out || l_desc(i).col_name || ':' || l_desc(i).col_type || ':' || l_desc(i).col_max_len
      || ':' || l_desc(i).col_precision || ':' || l_desc(i).col_scale || ';';
  END LOOP;
  DBMS_SQL.CLOSE_CURSOR(l_cur);
  RETURN l_cnt || '|' || l_out;
END;
/
""",
    )
    db.execute(
        "CREATE TABLE s.emp_desc (id numeric(6), name varchar(40), salary numeric(10,2), hired timestamp(0), memo text)"
    )
    assert db.execute("SELECT s.describe_emp()").fetchone()[0] == (
        "5|ID:2:22:6:0;NAME:1:40:0:0;SALARY:2:22:10:2;HIRED:12:7:0:0;MEMO:112:4000:0:0;"
    )
