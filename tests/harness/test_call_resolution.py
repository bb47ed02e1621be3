"""Calls that do not resolve (harness.resolution.call_resolution): the callee exists, the arguments select no
signature of it. Each body below deploys, and the broken call hides behind WHEN OTHERS."""

from __future__ import annotations

import psycopg
import pytest

from harness.resolution.references import METHOD_PREPARE, RoutineTracker, check_references, plpgsql_check_installed

CALLEES = """
CREATE FUNCTION f_int(p integer) RETURNS integer LANGUAGE sql AS 'SELECT p';
CREATE FUNCTION f_amb(p integer) RETURNS integer LANGUAGE sql AS 'SELECT p';
CREATE FUNCTION f_amb(p bigint) RETURNS integer LANGUAGE sql AS 'SELECT 2';
CREATE PROCEDURE describe(p_id integer, p_prefix varchar DEFAULT 'item', INOUT p_text varchar DEFAULT NULL)
LANGUAGE plpgsql AS $$ BEGIN p_text := p_prefix || p_id; END $$;
CREATE PROCEDURE take_out(p_id integer, OUT p_left integer)
LANGUAGE plpgsql AS $$ BEGIN p_left := p_id; END $$;
"""
CALLERS = {
    "numeric_arg": """CREATE FUNCTION numeric_arg() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE n numeric := 1; BEGIN RETURN f_int(n); EXCEPTION WHEN OTHERS THEN RETURN 0; END $$;""",
    "ambiguous": """CREATE FUNCTION ambiguous() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN RETURN f_amb('1'); EXCEPTION WHEN OTHERS THEN RETURN 0; END $$;""",
    "out_arg": """CREATE PROCEDURE out_arg() LANGUAGE plpgsql AS $$
DECLARE n numeric; BEGIN CALL take_out(1, n); EXCEPTION WHEN OTHERS THEN NULL; END $$;""",
    "good_calls": """CREATE FUNCTION good_calls() RETURNS text LANGUAGE plpgsql AS $$
DECLARE t varchar; i integer; BEGIN
  CALL describe(1, 'x', t); CALL describe(p_id => 2, p_text => t); CALL take_out(f_int(3), i);
  RETURN t || i;
END $$;""",
    "guessed": """CREATE FUNCTION guessed() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE r record; BEGIN SELECT 1.5 AS x INTO r; RETURN f_int(r.x); END $$;""",
}


@pytest.fixture(scope="module")
def found(pg_engine):
    from harness.engines.postgres import scratch_database

    tracker = RoutineTracker()
    with scratch_database(pg_engine, prefix="calls") as dsn:
        with psycopg.connect(dsn, autocommit=True) as conn:
            if plpgsql_check_installed(conn):
                pytest.skip("plpgsql_check installed here: it reports these itself")
            conn.execute(CALLEES)
            tracker(conn, "callees")
            for name, text in CALLERS.items():
                conn.execute(text)
                tracker(conn, name)
        method, result = check_references(dsn, tracker.created)
    assert method == METHOD_PREPARE
    return result


def test_a_numeric_argument_for_an_integer_parameter_is_an_unresolved_call(found):
    assert found["numeric_arg"].problems == [
        "numeric_arg() line 2: call f_int(...) matches no signature: function f_int(numeric) does not exist"
    ]
    assert found["numeric_arg"].missing == []  # the function exists: no missing name


def test_an_ambiguous_call_is_unresolved(found):
    assert found["ambiguous"].problems == [
        "ambiguous() line 2: call f_amb(...) is ambiguous: function f_amb(unknown) is not unique"
    ]


def test_a_procedure_is_chosen_by_its_out_arguments_too(found):
    (problem,) = found["out_arg"].problems
    assert problem.startswith("out_arg() line 2: call take_out(...) matches no signature")


def test_calls_that_resolve_are_counted_not_reported(found):
    good = found["good_calls"]
    assert good.problems == [] and good.missing == []
    assert good.calls == 4  # two CALLs of describe (default left out, named), take_out, f_int


def test_an_argument_whose_type_the_server_guessed_says_nothing(found):
    assert found["guessed"].problems == []
