"""Mutants of converted code (harness.judge_quality.mutation): the comparison mutants that no input can tell
apart are flagged with the reason, and only those — checked by running original and mutant on a
real PostgreSQL over inputs that include NULL."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from harness.judge_quality.mutation import NULL_COMPARISON, mutants
from migrator.convert import oracompat

FUNCTION = """CREATE FUNCTION f(x integer, s text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    r text := '';
BEGIN
    IF x = NULL THEN
        r := r || 'a';
    END IF;
    IF x > 1 THEN
        r := r || 'b';
    END IF;
    r := r || coalesce((SELECT 'c' WHERE NULL <> s), '-');
    r := r || coalesce((SELECT 'd' WHERE s = 'y'), '-');
    RETURN r;
END;
$fn$;
"""


def _comparison_mutants(text: str):
    return [m for m in mutants(text, per_operator=99) if m.operator == "comparison"]


def test_only_comparisons_with_a_bare_null_are_equivalent():
    flagged = [(m.description.split(" at ")[0], m.equivalent) for m in _comparison_mutants(FUNCTION)]
    assert flagged == [("= -> <>", NULL_COMPARISON), ("> -> <=", ""), ("<> -> =", NULL_COMPARISON), ("= -> <>", "")]


@pytest.mark.parametrize(
    "text",
    [
        "SELECT 1 WHERE s = NULL || 'x' OR t < NULL + 1;",  # the NULL is part of an operand, not all of it
        "SELECT 1 WHERE s = NULL::int + 1;",
    ],
)
def test_a_null_inside_an_operand_is_never_claimed(text):
    assert [m.equivalent for m in _comparison_mutants(text)] == [""] * len(_comparison_mutants(text))


@pytest.mark.parametrize(
    "text",
    [
        "UPDATE t SET a = 1, b = NULL WHERE c > 0;",  # an assignment, not a comparison
        "CREATE FUNCTION g() RETURNS void LANGUAGE plpgsql AS $$ BEGIN v = NULL; END $$;",
    ],
)
def test_an_assignment_to_null_is_never_claimed(text):
    assert all(not m.equivalent for m in _comparison_mutants(text))


def test_claimed_equivalents_behave_the_same_and_the_others_do_not(pg_dsn):
    inputs = [(None, None), (0, "x"), (2, "y"), (5, None), (None, "z")]

    def results(text: str) -> list:
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            conn.execute("DROP FUNCTION IF EXISTS f(integer, text)")
            conn.execute(text)
            return [conn.execute("SELECT f(%s, %s)", args).fetchone()[0] for args in inputs]

    original = results(FUNCTION)
    for m in _comparison_mutants(FUNCTION):
        assert (results(m.text) == original) == bool(m.equivalent), m.description


def test_a_cast_null_is_null_too_and_a_query_it_filters_has_no_rows_to_order(pg_dsn):
    """A view made for its row type only (`WHERE k = NULL::numeric`): its comparison and its
    ORDER BY are equivalent mutants; the same view filtered by a value is not."""
    never = "CREATE VIEW v AS SELECT a, b FROM t WHERE a = NULL::numeric AND b >= 0 ORDER BY b DESC;"
    some = "CREATE VIEW v AS SELECT a, b FROM t WHERE a = 1 AND b >= 0 ORDER BY b DESC;"
    either = "CREATE VIEW v AS SELECT a, b FROM t WHERE a = NULL OR b >= 0 ORDER BY b DESC;"
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE t (a numeric, b numeric); INSERT INTO t VALUES (1, 1), (1, 2), (NULL, 3)")

        def rows(text: str) -> list:
            conn.execute("DROP VIEW IF EXISTS v")
            conn.execute(text)
            return conn.execute("SELECT * FROM v").fetchall()

        for text, claimed in ((never, True), (some, False), (either, False)):
            original = rows(text)
            for m in mutants(text, per_operator=99):
                if m.description.startswith(("= ", "ORDER")):
                    # the comparison with NULL is equivalent in `either` too; its ORDER BY is not
                    assert bool(m.equivalent) == (claimed or (text == either and m.operator == "comparison"))
                    if m.equivalent:
                        assert rows(m.text) == original, (text, m.description)
            if not claimed:
                assert any(rows(m.text) != original for m in mutants(text) if m.operator == "order_by")


def test_the_sort_of_a_for_loop_query_is_reversed_before_loop():
    text = "CREATE FUNCTION h() RETURNS void LANGUAGE plpgsql AS $$ BEGIN FOR r IN SELECT x FROM t ORDER BY x LOOP y := r.x; END LOOP; END $$;"
    (m,) = [m for m in mutants(text) if m.operator == "order_by"]
    assert "ORDER BY x DESC LOOP y := r.x;" in m.text


def test_substr_from_0_made_from_1_is_equivalent(pg_dsn):
    """Oracle's SUBSTR reads from 1 when asked for 0 (oracompat.substr implements it); other
    positions and other functions' zeros are mutants like any other."""
    text = "SELECT oracompat.substr(s, 0, 3), oracompat.substr(s, 2, 1), substr(s, 0, 2) FROM t;"
    support = Path(oracompat.__file__).parent / "support.sql"
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(support.read_text())
        conn.execute("CREATE TABLE t (s text); INSERT INTO t VALUES ('abcdef'), ('x'), (NULL)")
        original = conn.execute(text).fetchall()
        flagged = []
        for m in mutants(text, per_operator=99):
            if m.operator == "constant":
                flagged.append(bool(m.equivalent))
                assert (conn.execute(m.text).fetchall() == original) == bool(m.equivalent), m.description
    assert flagged == [True, False, False, False, False, False]


ROWCOUNT = """CREATE FUNCTION g(n integer) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    sql__rowcount integer := 0;
    total integer := 0;
    r record;
BEGIN
    FOR r IN SELECT x FROM t WHERE x <= n ORDER BY x LOOP
        UPDATE t SET y = y + 1 WHERE x = r.x;
        GET DIAGNOSTICS sql__rowcount = ROW_COUNT;
        total := total + sql__rowcount;
    END LOOP;
    DELETE FROM t WHERE x > n;
    GET DIAGNOSTICS sql__rowcount = ROW_COUNT;
    IF sql__rowcount = 0 THEN
        RETURN 'none ' || total;
    END IF;
    RETURN 'some ' || total;
END;
$fn$;
"""


def _outcome(conn, query: str, args=()):
    """What a call answers: its rows, or its error's SQLSTATE and message."""
    try:
        with conn.transaction():
            return ("rows", conn.execute(query, args).fetchall())
    except psycopg.Error as exc:
        return ("error", exc.sqlstate, str(exc).splitlines()[0])


TREE = """CREATE TABLE cat (id integer PRIMARY KEY, parent integer, name text);
INSERT INTO cat VALUES (1, NULL, 'root'), (2, 1, 'b'), (3, 1, 'a'), (4, 2, 'x'), (5, NULL, 'other'), (6, 5, 'y');"""

# as the converter writes a CONNECT BY (tree_size: COUNT(*) of a walk, no LEVEL read; path: one
# row INTO STRICT; walk: the roots' ROW_NUMBER sorted by the column START WITH fixes)
WALKS = """
CREATE FUNCTION tree_size(p_root integer) RETURNS numeric LANGUAGE plpgsql AS $fn$
DECLARE
    l_count numeric;
BEGIN
    WITH RECURSIVE connect_by AS (SELECT cat.*, 1 AS cb_level, ARRAY[cat.ctid] AS cb_rows, ARRAY[ROW_NUMBER() OVER ()] AS cb_sort FROM cat AS cat WHERE cat.id = p_root UNION ALL SELECT cat.*, prior_row.cb_level + 1, prior_row.cb_rows || cat.ctid, prior_row.cb_sort || ROW_NUMBER() OVER () FROM cat AS cat JOIN connect_by AS prior_row ON (prior_row.id) = cat.parent) SELECT COUNT(*) FROM connect_by AS cat INTO STRICT l_count;
    RETURN l_count;
END;
$fn$;
CREATE FUNCTION path(p_id integer) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    v_path text;
BEGIN
    WITH RECURSIVE connect_by AS (SELECT cat.*, 1 AS cb_level, ARRAY[ROW_NUMBER() OVER ()] AS cb_sort, CONCAT('|', cat.name) AS cb_path_1 FROM cat AS cat WHERE cat.parent IS NULL UNION ALL SELECT cat.*, prior_row.cb_level + 1, prior_row.cb_sort || ROW_NUMBER() OVER (), CONCAT(prior_row.cb_path_1, '|', cat.name) FROM cat AS cat JOIN connect_by AS prior_row ON (prior_row.id) = cat.parent) SELECT cat.cb_path_1 FROM connect_by AS cat WHERE id = p_id ORDER BY cat.cb_sort INTO STRICT v_path;
    RETURN v_path;
END;
$fn$;
CREATE FUNCTION walk(p_root integer) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    r record;
    out text := '';
BEGIN
    FOR r IN WITH RECURSIVE connect_by AS (SELECT c.*, 1 AS cb_level, ARRAY[ROW_NUMBER() OVER (ORDER BY c.id)] AS cb_sort FROM cat AS c WHERE c.id = p_root UNION ALL SELECT c.*, prior_row.cb_level + 1, prior_row.cb_sort || ROW_NUMBER() OVER (ORDER BY c.name) FROM cat AS c JOIN connect_by AS prior_row ON (prior_row.id) = c.parent) SELECT c.cb_level AS lvl, c.name FROM connect_by AS c ORDER BY c.cb_sort LOOP
        out := out || r.lvl || r.name || ' ';
    END LOOP;
    RETURN out;
END;
$fn$;
"""


@pytest.mark.parametrize(
    ("text", "claimed"),
    [
        (ROWCOUNT, True),
        # a read before any GET DIAGNOSTICS: the initial value shows
        (ROWCOUNT.replace("    FOR r IN", "    total := sql__rowcount;\n    FOR r IN"), False),
        # a read in a branch the GET DIAGNOSTICS before it does not lead into
        (
            ROWCOUNT.replace(
                "    FOR r IN",
                "    IF n > 5 THEN GET DIAGNOSTICS sql__rowcount = ROW_COUNT; "
                "ELSE total := sql__rowcount; END IF;\n    FOR r IN",
            ),
            False,
        ),  # fmt: skip
    ],
)
def test_the_rowcount_initializer_is_equivalent_only_when_never_read(pg_dsn, text, claimed):
    """The converter's `sql__rowcount integer := 0` made 1: claimed equivalent only where every
    read follows a GET DIAGNOSTICS straight away, and then no input tells it apart."""
    (m,) = [
        m
        for m in mutants(text, per_operator=99)
        if m.operator == "constant" and "sql__rowcount integer := (0 + 1)" in m.text
    ]
    assert bool(m.equivalent) == claimed

    def answers(code: str) -> list:
        out = []
        with psycopg.connect(pg_dsn) as conn:
            conn.execute("CREATE TEMP TABLE t (x integer, y integer)")
            conn.execute(code.replace("CREATE FUNCTION g", "CREATE FUNCTION pg_temp.g"))
            for n in (0, 2, 9):
                conn.execute("DELETE FROM t; INSERT INTO t VALUES (1, 0), (2, 0), (3, 0)")
                out.append(conn.execute("SELECT pg_temp.g(%s)", (n,)).fetchone()[0])
            conn.rollback()
        return out

    assert (answers(m.text) == answers(text)) == claimed


def test_claims_about_converted_connect_by_hold_and_the_others_do_not(pg_dsn):
    """The level of a walk that reads none (`1 AS cb_level`, `cb_level + 1` under COUNT(*)), the
    sort of a SELECT INTO STRICT, and the roots' sort by the column START WITH sets equal are
    equivalent mutants; the level a walk prints and its other sorts are not."""
    calls = {"tree_size": [1, 2, 5, 99, None], "path": [1, 4, 6, 99, None], "walk": [1, 2, 5, 99, None]}
    claimed = {}
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(TREE)

        def results(text: str) -> dict:
            conn.execute("DROP FUNCTION IF EXISTS tree_size(integer), path(integer), walk(integer)")
            conn.execute(text)
            return {f: [_outcome(conn, f"SELECT {f}(%s)", (a,)) for a in args] for f, args in calls.items()}

        original = results(WALKS)
        for m in mutants(WALKS, per_operator=99):
            if m.operator not in ("constant", "order_by"):
                continue
            changed = results(m.text) != original
            assert changed != bool(m.equivalent), (m.description, m.equivalent)
            claimed[m.description.split(" at ")[0]] = claimed.get(m.description.split(" at ")[0], 0) + bool(
                m.equivalent
            )
    # tree_size's two, path's two; path's INTO STRICT sort; walk's roots' sort
    assert claimed == {"1 -> 1+1": 4, "ORDER BY": 2}, claimed


def test_a_sort_key_fixed_by_the_where_of_another_union_branch_is_not_claimed():
    for text in (
        "SELECT a FROM t WHERE a = 1 UNION SELECT a FROM u WHERE a = 2 ORDER BY a;",
        "SELECT a FROM t WHERE a = 1 OR b = 2 ORDER BY a;",
        "SELECT b AS a FROM t WHERE a = 1 ORDER BY a;",
    ):
        assert [m.equivalent for m in mutants(text) if m.operator == "order_by"] == [""], text


def test_the_duration_of_a_temporary_lob_is_ignored(pg_dsn):
    """oracompat.dbms_lob_createtemporary reads neither cache nor duration: the duration made
    another number is equivalent; the other constants of the same function are not."""
    text = """CREATE FUNCTION lob(p text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    l text;
BEGIN
    l := oracompat.dbms_lob_createtemporary(l, TRUE, 12);
    RETURN l || oracompat.substr(p, 2, 3);
END;
$fn$;"""
    from migrator.convert.oracompat.runtime import RUNTIME_SQL

    library = Path(oracompat.__file__).parent
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        for part in (
            (library / "support.sql").read_text(),
            RUNTIME_SQL,
            (library / "packages_lob_raw.sql").read_text(),
        ):
            conn.execute(part)

        def results(body: str) -> list:
            conn.execute("DROP FUNCTION IF EXISTS lob(text)")
            conn.execute(body)
            return [conn.execute("SELECT lob(%s)", (a,)).fetchone()[0] for a in ("abcdef", "x", None)]

        original = results(text)
        flagged = []
        for m in mutants(text, per_operator=99):
            if m.operator == "constant":
                flagged.append(bool(m.equivalent))
                assert (results(m.text) == original) == bool(m.equivalent), m.description
    assert flagged == [True, False, False]


def test_a_walk_view_whose_oracle_query_orders_nothing_has_the_same_rows_in_any_order(pg_dsn):
    """A converted CONNECT BY view without ORDER SIBLINGS BY (every cb_sort number OVER ()): its
    sort reversed gives the same multiset of rows (how views without an ORDER BY are compared);
    with ORDER SIBLINGS BY (cb_sort numbered OVER (ORDER BY ...)) the claim is not made."""
    view = """CREATE VIEW v AS WITH RECURSIVE connect_by AS (SELECT cat.*, 1 AS cb_level, ARRAY[ROW_NUMBER() OVER ()] AS cb_sort FROM cat AS cat WHERE cat.parent IS NULL UNION ALL SELECT cat.*, prior_row.cb_level + 1, prior_row.cb_sort || ROW_NUMBER() OVER () FROM cat AS cat JOIN connect_by AS prior_row ON (prior_row.id) = cat.parent) SELECT name, cat.cb_level AS lvl FROM connect_by AS cat ORDER BY cat.cb_sort;"""
    siblings = view.replace("OVER ()", "OVER (ORDER BY cat.name)")
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(TREE)

        def rows(text: str) -> list:
            conn.execute("DROP VIEW IF EXISTS v")
            conn.execute(text)
            return conn.execute("SELECT * FROM v").fetchall()

        for text, claimed in ((view, True), (siblings, False)):
            (m,) = [
                m
                for m in mutants(text, per_operator=99)
                if m.operator == "order_by" and m.text.endswith("cb_sort DESC;")
            ]
            assert bool(m.equivalent) == claimed
            assert sorted(rows(m.text)) == sorted(rows(text))
            if not claimed:
                assert rows(m.text) != rows(text)
