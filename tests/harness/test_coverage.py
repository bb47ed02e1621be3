"""Statement and branch coverage by execution: probes land where statements begin (never inside a
literal), report once, and leave the routine's behaviour (FOUND, ROW_COUNT, output) unchanged."""

from __future__ import annotations

import psycopg
import pytest

from harness.probing.coverage import coverage_of, instrument
from harness.probing.plpgsql_text import matching_end_if, plain_declarations, scan
from harness.resolution.references import RoutineTracker

BRANCHY = """CREATE FUNCTION app.grade(p integer) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    v text := 'IF p > 0 THEN -- not code';  -- a string and a comment that look like code
BEGIN
    IF p > 90 THEN
        v := 'A';
    ELSIF p > 50 THEN
        v := 'B';
    END IF;
    <<counting>>
    FOR i IN 1..2 LOOP
        v := v || '';
    END LOOP counting;
    RETURN v;
END;
$fn$;"""

FOUND_SENSITIVE = """CREATE FUNCTION app.has_row(p integer) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    n integer;
BEGIN
    SELECT 1 INTO n FROM app.t WHERE id = p;
    IF NOT FOUND THEN
        RETURN 'none';
    END IF;
    UPDATE app.t SET id = id WHERE id >= p;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN 'rows ' || n;
END;
$fn$;"""


def _deploy(dsn: str, *sqls: str) -> dict[str, list[int]]:
    tracker = RoutineTracker()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA app; CREATE TABLE app.t(id int); INSERT INTO app.t VALUES (1), (2), (3)")
        tracker(conn, "<setup>")
        for i, text in enumerate(sqls):
            conn.execute(text.encode("utf-8"))
            tracker(conn, f"unit{i}")
    return {k: v for k, v in tracker.created.items() if k != "<setup>"}


def _call(dsn: str, plan, sql: str) -> tuple[list, set[str], list[str]]:
    hits, notices = set(), []
    with psycopg.connect(dsn, autocommit=True) as conn:

        def on(d):
            hit = plan.hit(d.message_primary or "")
            (notices.append(d.message_primary) if hit is None else hits.add(hit))

        conn.add_notice_handler(on)
        rows = conn.execute(sql).fetchall()
    return rows, hits, notices


def test_branches_and_implicit_else_are_measured(pg_dsn):
    created = _deploy(pg_dsn, BRANCHY)
    plan = instrument(pg_dsn, created)
    probes = plan.probes["unit0"]
    # IF, its two branches, its implicit ELSE, the FOR, the loop body, the RETURN
    assert len(probes) == 7 and sum(p.kind == "else" for p in probes) == 1
    rows, hits, _ = _call(pg_dsn, plan, "SELECT app.grade(95)")
    assert rows == [("A",)]
    cov = coverage_of(plan, "unit0", hits)
    assert not cov.complete and any("(else)" in u for u in cov.uncovered)
    for arg in (60, 10):
        hits |= _call(pg_dsn, plan, f"SELECT app.grade({arg})")[1]
    assert coverage_of(plan, "unit0", hits).complete


def test_instrumented_routine_behaves_as_the_original(pg_dsn):
    created = _deploy(pg_dsn, FOUND_SENSITIVE)
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        before = [conn.execute(f"SELECT app.has_row({p})").fetchone() for p in (0, 2)]
    plan = instrument(pg_dsn, created)
    after = [_call(pg_dsn, plan, f"SELECT app.has_row({p})")[0][0] for p in (0, 2)]
    assert before == after == [("none",), ("rows 2",)]


def test_probes_report_once_and_never_reach_the_output(pg_dsn):
    loop = """CREATE FUNCTION app.chatty() RETURNS int LANGUAGE plpgsql AS $fn$
BEGIN
    FOR i IN 1..50 LOOP
        RAISE NOTICE 'line %', i;
    END LOOP;
    RETURN 1;
END;
$fn$;"""
    plan = instrument(pg_dsn, _deploy(pg_dsn, loop))
    _, hits, notices = _call(pg_dsn, plan, "SELECT app.chatty()")
    assert notices == [f"line {i}" for i in range(1, 51)]
    assert coverage_of(plan, "unit0", hits).complete


def test_qualified_declaration_types_are_parsed(pg_dsn):
    typed = """CREATE TYPE app.pair AS (a int, b int);
CREATE FUNCTION app.sum_pair(p integer) RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
    v app.pair;
    w app.t.id%TYPE := 1;
BEGIN
    v.a := p;
    v.b := w;
    IF p IS NULL THEN
        RETURN 0;
    END IF;
    RETURN v.a + v.b;
END;
$fn$;"""
    plan = instrument(pg_dsn, _deploy(pg_dsn, typed))
    assert "unit0" not in plan.skipped and len(plan.probes["unit0"]) == 6
    _, hits, _ = _call(pg_dsn, plan, "SELECT app.sum_pair(2)")
    assert coverage_of(plan, "unit0", hits).percent == pytest.approx(83.3)  # RETURN 0 not executed


def test_scanner_keeps_literals_whole():
    body = "x := E'a\\'b' || $q$ IF $q$ || 'it''s'; -- IF\n/* IF /* nested */ */ IF y THEN"
    texts = [t.text for t in scan(body)]
    assert texts == ["x", ":=", "E'a\\'b'", "||", "$q$ IF $q$", "||", "'it''s'", ";", "IF", "y", "THEN"]
    tokens = scan("IF a THEN IF b THEN x; END IF; END IF;")
    assert matching_end_if(tokens, 0) == 11  # the outer END IF, not the inner one


def test_plain_declarations_keep_lines():
    body = "\nDECLARE\n    v app.pair;\n    w app.t.id%TYPE := 1;\n    c CURSOR FOR SELECT 1;\nBEGIN\nEND;"
    plain = plain_declarations(body)
    assert plain.count("\n") == body.count("\n")
    assert "v record;" in plain and "w text := 1;" in plain and "c CURSOR FOR SELECT 1;" in plain
