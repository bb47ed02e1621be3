"""Mutants of converted code (harness.mutation): the comparison mutants that no input can tell
apart are flagged with the reason, and only those — checked by running original and mutant on a
real PostgreSQL over inputs that include NULL."""

from __future__ import annotations

import psycopg
import pytest

from harness.mutation import NULL_COMPARISON, mutants

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
        "SELECT 1 WHERE s = NULL::int;",  # (a cast is left to be run, not reasoned about)
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
