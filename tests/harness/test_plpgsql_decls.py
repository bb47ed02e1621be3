"""The pieces of the pglast + PREPARE resolver that need no server: declarations and substitution."""

from __future__ import annotations

from harness.resolution.plpgsql_decls import declarations, rewrite_types
from harness.resolution.prepare_check import constant_string, sources, substitute
from harness.resolution.routine_model import Expr, Routine, Symbol

BODY = """
#variable_conflict use_column
<<blk>>
DECLARE
  v s.t.col%TYPE; r t%ROWTYPE := NULL;
  k CONSTANT int NOT NULL DEFAULT 1; x ALIAS FOR $1;
  c NO SCROLL CURSOR (k int) FOR SELECT 1; "Q" numeric(12,2) = 3; y s.typ[];
BEGIN
  DECLARE a s.pair; BEGIN NULL; END;
END"""


def test_declarations_are_read_with_their_types_and_lines():
    found = {(d.name, d.kind, d.type_text, d.line) for d in declarations(BODY)}
    assert found == {
        ("v", "var", "s.t.col%TYPE", 5),
        ("r", "var", "t%ROWTYPE", 5),
        ("k", "var", "int", 6),
        ("x", "alias", "$1", 6),
        ("c", "cursor", "refcursor", 7),
        ("Q", "var", "numeric(12,2)", 7),
        ("y", "var", "s.typ[]", 7),
        ("a", "var", "s.pair", 9),
    }


def test_type_rewrites_keep_every_line_where_it_was():
    decl = {d.name: d for d in declarations(BODY)}
    rewritten = rewrite_types(BODY, {decl["r"].type_span: "record", decl["a"].type_span: "record"})
    assert rewritten.count("\n") == BODY.count("\n")
    assert "r record := NULL" in rewritten and "a record;" in rewritten


def test_an_unreadable_body_has_no_declarations():
    assert declarations("DECLARE x int; BEGIN RETURN 'unterminated; END") == []


def _routine() -> Routine:
    symbols = {"v": Symbol(23), "r": Symbol(), "new": Symbol(16384, True)}
    return Routine(1, "f()", "f", [], symbols=symbols, labels={"blk", "f"}, positional=[23], shapes={"r": {"a": 25}})


def test_variables_become_typed_parameters_and_output_columns_keep_their_names():
    check = substitute("SELECT v, blk.v + $1, r.a, r.zz, new.x FROM t WHERE t.v = v", _routine())
    assert check.text == "SELECT $1 AS v, $2 + $3, $4 AS a, $5 AS zz, ($6).x FROM t WHERE t.v = $7"
    assert check.types == (23, 23, 23, 25, 0, 16384, 23)
    assert check.missing == ("field r.zz (not a column of its loop's query)",)


def test_sql_texts_of_each_plpgsql_expression():
    assert sources(Expr(1, 2, "v > 0")) == [("SELECT v > 0", True)]
    assert sources(Expr(1, 3, "v := v + 1")) == [("SELECT v", True), ("SELECT v + 1", True)]
    assert sources(Expr(1, 0, "CALL p(v)")) == [("SELECT p(v)", True)]
    assert sources(Expr(1, 0, "CREATE TABLE x(a int)")) == []  # DDL is not analysed before it runs
    dynamic = sources(Expr(1, 2, "'DELETE FROM gone WHERE id = $1'", dynamic=True))
    assert dynamic[1] == ("DELETE FROM gone WHERE id = $1", False)
    assert constant_string("'a' || v") is None
