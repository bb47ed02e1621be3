"""Calls between converted routines resolve as Oracle's do (issue 18), judged by execution.

Each case is a pair of routines where the caller's WHEN OTHERS handler would hide a call that
PostgreSQL cannot resolve (or a comparison it cannot make) behind a plausible result: the tests
assert the real result, so the handler must not have fired. Each schema goes through the whole
pipeline (reader, catalog, every unit converted) and is deployed on a real PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from harness.judge.deploy import deploy_units
from migrator.batch.output import PREAMBLE
from migrator.batch.pipeline import MigrateOptions, migrate

BOOKS = """
CREATE TABLE books (
    book_id   NUMBER(9) PRIMARY KEY,
    title     VARCHAR2(40),
    copies    NUMBER(4) NOT NULL,
    out_count NUMBER(4) DEFAULT 0 NOT NULL,
    added_on  DATE
);
INSERT INTO books (book_id, title, copies, added_on) VALUES (1, 'Dune', 3, DATE '2024-01-31');
INSERT INTO books (book_id, title, copies, added_on) VALUES (2, 'Emma', 2, DATE '2023-06-01');
INSERT INTO books (book_id, title, copies, added_on) VALUES (3, 'Ulysses', 1, DATE '2022-03-15');
"""


def migrate_and_deploy(tmp_path: Path, dsn: str, oracle: str, disabled: frozenset[str] = frozenset()):
    """The schema `lib` (one file) migrated and deployed; returns the report and a connection."""
    src = tmp_path / "lib"
    src.mkdir()
    (src / "lib.sql").write_text(oracle, encoding="utf-8")
    out = tmp_path / "out"
    report = migrate(src, out, MigrateOptions(force=True, progress=False, disabled_rules=disabled))
    items = [(u.id, (out / u.output).read_text(encoding="utf-8"), u.depends_on) for u in report.units]
    pre, outcomes = deploy_units(dsn, (out / PREAMBLE).read_text(encoding="utf-8"), items)
    assert pre.ok, pre.error
    assert [(o.unit_id, o.error) for o in outcomes if not o.ok] == []
    conn = psycopg.connect(dsn, autocommit=True)
    conn.execute("SET search_path = lib, oracompat, public")
    return report, conn


def scalar(conn, query: str):
    return conn.execute(query).fetchone()[0]


def notices(conn) -> list[str]:
    got: list[str] = []
    conn.add_notice_handler(lambda d: got.append(d.message_primary))
    return got


# ---- 1. a NUMBER argument where the parameter became integer (NUMBER(p,0) %TYPE) ------------------
NUMBERS = (
    BOOKS
    + """
CREATE OR REPLACE PROCEDURE check_out (p_book IN books.book_id%TYPE, p_n IN books.copies%TYPE,
                                       p_left OUT books.copies%TYPE) IS
BEGIN
    UPDATE books SET out_count = out_count + p_n WHERE book_id = p_book;
    SELECT copies - out_count INTO p_left FROM books WHERE book_id = p_book;
END check_out;
/
CREATE OR REPLACE FUNCTION copies_left (p_book IN books.book_id%TYPE) RETURN NUMBER IS
    v_left NUMBER;
BEGIN
    SELECT copies - out_count INTO v_left FROM books WHERE book_id = p_book;
    RETURN v_left;
END copies_left;
/
CREATE OR REPLACE PACKAGE lending AS
    FUNCTION is_out (p_book IN books.book_id%TYPE) RETURN PLS_INTEGER;
END lending;
/
CREATE OR REPLACE PACKAGE BODY lending AS
    FUNCTION is_out (p_book IN books.book_id%TYPE) RETURN PLS_INTEGER IS
    BEGIN
        RETURN CASE WHEN copies_left(p_book) < 3 THEN 1 ELSE 0 END;
    END is_out;
END lending;
/
CREATE OR REPLACE FUNCTION checked_out_books RETURN NUMBER IS
    v_id    NUMBER := 1;
    v_two   NUMBER := 2;
    v_left  NUMBER;
    v_total NUMBER := 0;
    FUNCTION twice (p IN PLS_INTEGER) RETURN PLS_INTEGER IS
    BEGIN
        RETURN 2 * p;
    END twice;
BEGIN
    check_out(v_id, 1, v_left);                   -- NUMBER into integer/smallint; OUT smallint into NUMBER
    check_out(p_book => v_two, p_n => v_two / 2, p_left => v_left);
    v_total := copies_left(v_id) + lending.is_out(v_two) + twice(v_two / 2) - 2;
    SELECT v_total + SUM(lending.is_out(book_id * 1.0)) INTO v_total FROM books;
    RETURN v_total * 10 + v_left;
EXCEPTION
    WHEN OTHERS THEN
        RETURN 0;  -- what a call that does not resolve would return: "0 books checked out"
END checked_out_books;
/
"""
)


def test_number_argument_reaches_an_integer_parameter(tmp_path, pg_dsn):
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, NUMBERS)
    # copies_left(1) = 2 and is_out(2) = 1, plus is_out of each book (all three have fewer than
    # 3 copies left): 6, times 10, plus the 1 copy of book 2 left
    assert scalar(conn, "SELECT checked_out_books()") == 61
    assert conn.execute("SELECT book_id, out_count FROM books ORDER BY 1").fetchall() == [(1, 1), (2, 1), (3, 0)]


# ---- 2. a VARCHAR2 value where Oracle applies TO_NUMBER / TO_DATE ---------------------------------
STRINGS = (
    BOOKS
    + """
CREATE OR REPLACE FUNCTION added_since (p_book IN NUMBER, p_since IN DATE) RETURN NUMBER IS
    v_n NUMBER;
BEGIN
    SELECT COUNT(*) INTO v_n FROM books WHERE book_id = p_book AND added_on >= p_since;
    RETURN v_n;
END added_since;
/
CREATE OR REPLACE PROCEDURE rename_book (p_book IN books.book_id%TYPE, p_title IN VARCHAR2) IS
BEGIN
    UPDATE books SET title = p_title WHERE book_id = p_book;
END rename_book;
/
CREATE OR REPLACE FUNCTION from_text (p_book IN VARCHAR2, p_since IN VARCHAR2) RETURN VARCHAR2 IS
    v_title books.title%TYPE;
    v_code  NUMBER := 7.50;
BEGIN
    rename_book(p_book, v_code);                       -- TO_NUMBER of the id; the title gets '7.5'
    SELECT title INTO v_title FROM books WHERE book_id = p_book;   -- NUMBER column = VARCHAR2
    RETURN v_title || ':' || added_since(p_book, p_since) || ':' || added_since(p_book, DATE '2030-01-01');
EXCEPTION
    WHEN OTHERS THEN
        RETURN 'handler';
END from_text;
/
"""
)


def test_varchar_argument_converts_like_to_number_and_to_date(tmp_path, pg_dsn):
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, STRINGS)
    assert scalar(conn, "SELECT from_text('2', '2023-01-01')") == "7.5:1:0"
    assert scalar(conn, "SELECT from_text(' 3 ', '2023-01-01')") == "7.5:0:0"
    # a string that is no number fails in Oracle too (ORA-01722): then, and only then, the handler
    assert scalar(conn, "SELECT from_text('x', '2023-01-01')") == "handler"


WRITES = (
    BOOKS
    + """
CREATE OR REPLACE FUNCTION add_book (p_id IN VARCHAR2, p_copies IN VARCHAR2, p_added IN VARCHAR2)
    RETURN VARCHAR2 IS
BEGIN
    INSERT INTO books (book_id, title, copies, added_on) VALUES (p_id, 'New', p_copies, p_added);
    UPDATE books SET out_count = p_copies, title = title || '!' WHERE book_id = p_id;
    RETURN 'added ' || p_id;
EXCEPTION
    WHEN OTHERS THEN
        RETURN 'handler';
END add_book;
/
"""
)


def test_varchar_written_into_number_and_date_columns(tmp_path, pg_dsn):
    import datetime as dt

    _, conn = migrate_and_deploy(tmp_path, pg_dsn, WRITES)
    assert scalar(conn, "SELECT add_book('4', '2', '01-MAY-2024')") == "added 4"
    row = conn.execute("SELECT book_id, title, copies, out_count, added_on FROM books WHERE book_id = 4").fetchone()
    assert row == (4, "New!", 2, 2, dt.datetime(2024, 5, 1))
    assert scalar(conn, "SELECT add_book('5', 'two', NULL)") == "handler"  # ORA-01722 in Oracle too


# ---- 2b. a VARCHAR2 bind compared with a NUMBER column in dynamic SQL -----------------------------
BINDS = (
    BOOKS
    + """
CREATE OR REPLACE FUNCTION count_by_id (p_id IN VARCHAR2) RETURN NUMBER IS
    v_count NUMBER;
BEGIN
    EXECUTE IMMEDIATE 'SELECT COUNT(*) FROM books WHERE book_id = :1 AND added_on < :2'
        INTO v_count USING p_id, '2024-12-31';
    RETURN v_count;
EXCEPTION
    WHEN OTHERS THEN
        RETURN -1;
END count_by_id;
/
CREATE OR REPLACE FUNCTION titles_from (p_id IN VARCHAR2) RETURN VARCHAR2 IS
    c     SYS_REFCURSOR;
    v_t   books.title%TYPE;
    v_out VARCHAR2(200);
BEGIN
    OPEN c FOR 'SELECT title FROM books WHERE book_id >= :1 ORDER BY book_id' USING p_id;
    LOOP
        FETCH c INTO v_t;
        EXIT WHEN c%NOTFOUND;
        v_out := v_out || v_t || ';';
    END LOOP;
    CLOSE c;
    RETURN v_out;
EXCEPTION
    WHEN OTHERS THEN
        RETURN 'handler';
END titles_from;
/
"""
)


@pytest.mark.parametrize(
    "arg, expected",
    [("'1'", 1), ("'2.5'", 0), ("' 3 '", 1), ("NULL", 0), ("''", 0), ("'1e0'", 1), ("'abc'", -1)],
)
def test_varchar_bind_compared_with_number_column(tmp_path, pg_dsn, arg, expected):
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, BINDS)
    # Oracle converts the bind (TO_NUMBER; '' is NULL); only a non-number reaches the handler
    assert scalar(conn, f"SELECT count_by_id({arg})") == expected
    assert scalar(conn, "SELECT titles_from('2')") == "Emma;Ulysses;"


# ---- 3. a default before an OUT parameter ---------------------------------------------------------
DEFAULTS = (
    BOOKS
    + """
CREATE OR REPLACE PROCEDURE describe_book (
    p_id     IN  books.book_id%TYPE,
    p_prefix IN  VARCHAR2 DEFAULT 'book',
    p_text   OUT VARCHAR2,
    p_copies OUT NUMBER
) IS
BEGIN
    SELECT p_prefix || ': ' || title INTO p_text FROM books WHERE book_id = p_id;
    IF p_id > 1 THEN
        p_copies := 0;
    END IF;                                   -- p_copies stays NULL for book 1, as Oracle's OUT starts
END describe_book;
/
CREATE OR REPLACE FUNCTION shelf_label (p_id IN NUMBER) RETURN VARCHAR2 IS
    v_text   VARCHAR2(100);
    v_copies NUMBER := 42;
BEGIN
    describe_book(p_id => p_id, p_text => v_text, p_copies => v_copies);
    RETURN v_text || '/' || NVL(TO_CHAR(v_copies), 'null');
EXCEPTION
    WHEN OTHERS THEN
        RETURN 'handler';
END shelf_label;
/
"""
)


def test_default_before_out_parameter_keeps_every_call_form(tmp_path, pg_dsn):
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, DEFAULTS)
    assert scalar(conn, "SELECT shelf_label(1)") == "book: Dune/null"  # OUT starts NULL, not 42
    assert scalar(conn, "SELECT shelf_label(2)") == "book: Emma/0"
    got = notices(conn)
    conn.execute(
        "DO $$ DECLARE t varchar(100); n numeric; BEGIN "
        "CALL describe_book(3, 'x', t, n); RAISE NOTICE '%', t; "  # positional
        "CALL describe_book(p_id => 3, p_text => t, p_copies => n); RAISE NOTICE '%', t; "  # named, default left out
        "CALL describe_book(3, p_copies => n, p_text => t, p_prefix => NULL); RAISE NOTICE '%', t; "  # mixed
        "END $$"
    )
    assert got == ["x: Ulysses", "book: Ulysses", ": Ulysses"]
    assert conn.execute("CALL describe_book(2)").fetchone() == ("book: Emma", 0)  # a scenario step's form


def test_default_before_out_parameter_switched_off_is_refused(tmp_path, pg_dsn):
    report = migrate(
        _source(tmp_path, DEFAULTS),
        tmp_path / "out",
        MigrateOptions(force=True, progress=False, disabled_rules=frozenset({"plsql.out_after_default"})),
    )
    unit = next(u for u in report.units if u.id.startswith("procedure:"))
    assert [i.construct_name for i in unit.unconverted] == ["OUT parameter after a default"]


def _source(tmp_path: Path, text: str) -> Path:
    src = tmp_path / "lib"
    src.mkdir()
    (src / "lib.sql").write_text(text, encoding="utf-8")
    return src


# ---- overloads, and calls Oracle would refuse ---------------------------------------------------
OVERLOADS = (
    BOOKS
    + """
CREATE OR REPLACE PACKAGE shelf AS
    FUNCTION find (p_id IN books.book_id%TYPE) RETURN VARCHAR2;
    FUNCTION find (p_title IN VARCHAR2) RETURN VARCHAR2;
    FUNCTION find (p_since IN DATE) RETURN VARCHAR2;
END shelf;
/
CREATE OR REPLACE PACKAGE BODY shelf AS
    FUNCTION find (p_id IN books.book_id%TYPE) RETURN VARCHAR2 IS
    BEGIN
        RETURN 'id ' || p_id;
    END find;
    FUNCTION find (p_title IN VARCHAR2) RETURN VARCHAR2 IS
    BEGIN
        RETURN 'title ' || p_title;
    END find;
    FUNCTION find (p_since IN DATE) RETURN VARCHAR2 IS
    BEGIN
        RETURN 'since ' || TO_CHAR(p_since, 'YYYY-MM-DD');
    END find;
END shelf;
/
CREATE OR REPLACE FUNCTION lookups RETURN VARCHAR2 IS
    v_num  NUMBER := 2.0;
    v_text VARCHAR2(10) := '2';
    v_day  DATE := DATE '2024-02-29';
BEGIN
    RETURN shelf.find(v_num) || '|' || shelf.find(v_text) || '|' || shelf.find(v_day)
        || '|' || shelf.find(p_title => 'Emma') || '|' || shelf.find(v_num + 1);
EXCEPTION
    WHEN OTHERS THEN
        RETURN 'handler';
END lookups;
/
"""
)


def test_the_overload_oracle_picks(tmp_path, pg_dsn):
    _, conn = migrate_and_deploy(tmp_path, pg_dsn, OVERLOADS)
    assert scalar(conn, "SELECT lookups()") == "id 2|title 2|since 2024-02-29|title Emma|id 3"


def test_a_call_oracle_would_refuse_is_a_conversion_problem_of_the_caller(tmp_path):
    text = (
        BOOKS
        + """
CREATE OR REPLACE FUNCTION copies_of (p_book IN NUMBER, p_shelf IN VARCHAR2) RETURN NUMBER IS
BEGIN
    RETURN 1;
END copies_of;
/
CREATE OR REPLACE FUNCTION bad_caller RETURN NUMBER IS
BEGIN
    RETURN copies_of(1, p_row => 2);
EXCEPTION
    WHEN OTHERS THEN
        RETURN 0;
END bad_caller;
/
"""
    )
    report = migrate(_source(tmp_path, text), tmp_path / "out", MigrateOptions(force=True, progress=False))
    units = {u.id.split("#")[0]: u for u in report.units}
    assert units["function:lib.copies_of"].unconverted == []
    problems = units["function:lib.bad_caller"].unconverted
    assert [p.construct_name for p in problems] == ["call of a converted routine"]
    assert "copies_of: no signature takes these arguments" in problems[0].message


# ---- character values and LOB / XMLTYPE overloads ---------------------------------------------------
LOB_OVERLOADS = """
CREATE OR REPLACE PACKAGE says AS
    FUNCTION kind_of (p_msg IN VARCHAR2) RETURN VARCHAR2;
    FUNCTION kind_of (p_clob IN CLOB) RETURN VARCHAR2;
    FUNCTION kind_of (p_xml IN XMLTYPE) RETURN VARCHAR2;
    FUNCTION bytes_of (p_raw IN BLOB) RETURN VARCHAR2;
    FUNCTION bytes_of (p_txt IN NCLOB) RETURN VARCHAR2;
END says;
/
CREATE OR REPLACE PACKAGE BODY says AS
    FUNCTION kind_of (p_msg IN VARCHAR2) RETURN VARCHAR2 IS
    BEGIN
        RETURN 'varchar2';
    END kind_of;
    FUNCTION kind_of (p_clob IN CLOB) RETURN VARCHAR2 IS
    BEGIN
        RETURN 'clob';
    END kind_of;
    FUNCTION kind_of (p_xml IN XMLTYPE) RETURN VARCHAR2 IS
    BEGIN
        RETURN 'xml';
    END kind_of;
    FUNCTION bytes_of (p_raw IN BLOB) RETURN VARCHAR2 IS
    BEGIN
        RETURN 'blob';
    END bytes_of;
    FUNCTION bytes_of (p_txt IN NCLOB) RETURN VARCHAR2 IS
    BEGIN
        RETURN 'nclob';
    END bytes_of;
END says;
/
CREATE OR REPLACE FUNCTION picks RETURN VARCHAR2 IS
    v_text VARCHAR2(10) := 'abc';
    v_clob CLOB := 'abc';
    v_out  VARCHAR2(200);
BEGIN
    v_out := says.kind_of('lit') || '|' || says.kind_of(v_text || '!') || '|' || says.kind_of(v_clob)
        || '|' || says.kind_of(SQLERRM) || '|' || says.bytes_of('ab') || '|' || says.bytes_of(v_text);
    RETURN v_out;
EXCEPTION
    WHEN OTHERS THEN
        RETURN 'handler';
END picks;
/
"""


def test_character_values_bind_to_the_character_overload(tmp_path, pg_dsn):
    """A VARCHAR2 value or literal binds to the VARCHAR2 overload before CLOB, a CLOB to CLOB,
    text to NCLOB before BLOB, never to XMLTYPE (each of these was 'N signatures fit equally')."""
    report, conn = migrate_and_deploy(tmp_path, pg_dsn, LOB_OVERLOADS)
    assert [u.unconverted for u in report.units if u.id.startswith("function:lib.picks")] == [[]]
    assert scalar(conn, "SELECT picks()") == "varchar2|varchar2|clob|varchar2|nclob|nclob"
