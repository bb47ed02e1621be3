"""The emitter's structure: every statement class has exactly one emitter in the registry, no
class of the emitter is a mixin, and per-routine state lives in a routine frame that starts fresh
for each routine and never leaks into the next one (a package member, a lifted nested subprogram)."""

from __future__ import annotations

import ast
import inspect
import pkgutil
from pathlib import Path

import pytest

import migrator.convert
from migrator.convert.context import Catalog, ConversionContext
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import statements
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.state import RoutineFrame
from migrator.convert.plsql.statements import STATEMENTS, emits
from tests.migrator.plsql_support import convert_all, split_sql


def _statement_classes() -> set[type]:
    found, todo = set(), [A.Stmt]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.add(sub)
            todo.append(sub)
    return found


def _emitter_modules() -> list:
    import migrator.convert.plsql as plsql

    return [
        __import__(f"migrator.convert.plsql.{m.name}", fromlist=["_"])
        for m in pkgutil.iter_modules(plsql.__path__)
        if m.name.startswith("emit") or m.name in ("exprs", "values", "targets")
    ]


def test_every_statement_class_has_exactly_one_emitter():
    assert set(STATEMENTS) == _statement_classes()
    for cls, fn in STATEMENTS.items():
        assert fn.__name__ == "st_" + cls.__name__.lower(), cls
    # exactly one: no other module-level function is decorated for the same class
    registered = []
    for mod in _emitter_modules():
        for node in ast.parse(inspect.getsource(mod)).body:
            if isinstance(node, ast.FunctionDef):
                registered += [ast.unparse(d) for d in node.decorator_list if ast.unparse(d).startswith("emits(")]
    assert sorted(registered) == sorted(f"emits(A.{cls.__name__})" for cls in STATEMENTS)


def test_a_second_emitter_for_one_statement_class_is_refused():
    with pytest.raises(TypeError, match="If already has an emitter: .*emit_stmt.st_if"):

        @emits(A.If)
        def st_if_again(em, st, scope, ind):
            return []

    assert STATEMENTS[A.If].__module__ == "migrator.convert.plsql.emit_stmt"
    assert statements.STATEMENTS is STATEMENTS


def test_no_class_under_convert_is_a_mixin():
    """The emitter's concerns are module functions taking the Emitter; no class is composed of
    others that reach each other's attributes through `self`."""
    root = Path(migrator.convert.__file__).parent
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                assert not node.name.endswith("Mixin"), f"{path}: {node.name}"
    assert Emitter.__mro__ == (Emitter, object)


def test_routine_state_is_declared_in_the_frame_not_set_on_the_emitter():
    fields = set(inspect.signature(RoutineFrame).parameters)
    source = "\n".join(inspect.getsource(m) for m in [*_emitter_modules(), Emitter])
    for name in fields:
        assert f"self.{name} =" not in source and f"em.{name} =" not in source, name


def _emitter() -> Emitter:
    return Emitter(ConversionContext(catalog=Catalog(default_schema="s")), "s", "", [])


def test_a_routine_frame_is_fresh_and_the_enclosing_one_comes_back():
    em = _emitter()
    outer = em.frame
    outer.extra_decls.append("x integer;")
    with em.routine_frame(("s", "p"), kind="PROCEDURE") as frame:
        assert frame is em.frame and frame.extra_decls == [] and frame.kind == "PROCEDURE"
        frame.autonomous = True
        with em.within(in_handler=True, handler_diag={"column": False, "used": False}):
            assert em.frame.in_handler and em.frame.handler_diag is not None
        assert not em.frame.in_handler and em.frame.handler_diag is None
    assert em.frame is outer and not outer.autonomous and outer.extra_decls == ["x integer;"]


def _converted(text: str) -> dict[str, tuple[str, list]]:
    return {u.name: (out, unconverted) for u, out, unconverted, _, _ in convert_all(split_sql(text))}


def test_a_savepoint_done_by_one_members_block_is_not_assumed_in_the_next_member():
    out, unconverted = _converted(
        """CREATE OR REPLACE PACKAGE BODY p AS
  PROCEDURE a IS
  BEGIN
    BEGIN
      SAVEPOINT sp;
      UPDATE t SET x = 1;
    EXCEPTION WHEN OTHERS THEN ROLLBACK TO sp;
    END;
  END;
  PROCEDURE b IS
  BEGIN
    UPDATE t SET x = 2;
  EXCEPTION WHEN OTHERS THEN ROLLBACK TO sp;
  END;
END p;
/
"""
    )["p"]
    member_a, member_b = out.split("CREATE OR REPLACE PROCEDURE p.b")
    assert "NULL;  -- ROLLBACK TO sp: the exception block's subtransaction does this" in member_a
    # Oracle raises ORA-01086 in b (sp was never set there): no silent NULL in its place
    assert "MIGRATOR_UNCONVERTED(ROLLBACK)" in member_b and [u.line for u in unconverted] == [13]


def test_a_lifted_subprogram_owns_the_helpers_of_its_nested_blocks():
    out, unconverted = _converted(
        """CREATE OR REPLACE PROCEDURE outer_p IS
  PROCEDURE inner_p IS
  BEGIN
    DECLARE
      TYPE rec IS RECORD (a NUMBER);
      r rec;
    BEGIN
      r.a := 1;
    END;
  END;
BEGIN
  inner_p;
END;
/
"""
    )["outer_p"]
    assert not unconverted and "CREATE TYPE s.outer_p__inner_p__rec AS" in out


def test_raise_application_error_without_an_error_number_is_unconverted():
    out, unconverted = _converted("CREATE OR REPLACE PROCEDURE r IS BEGIN RAISE_APPLICATION_ERROR; END;\n/\n")["r"]
    assert [u.construct for u in unconverted] == ["RAISE_APPLICATION_ERROR"] and "RAISE EXCEPTION" not in out


def test_a_collection_method_that_needs_an_index_is_unconverted_without_one():
    # EXISTS, NEXT and PRIOR take an index (PLS-00306 without); no NULL-keyed text is written
    out, unconverted = _converted(
        """CREATE OR REPLACE FUNCTION f RETURN NUMBER IS
  TYPE t IS TABLE OF NUMBER INDEX BY PLS_INTEGER;
  v t;
BEGIN
  IF v.EXISTS THEN RETURN 1; END IF;
  RETURN v.NEXT(1);
END;
/
"""
    )["f"]
    assert [u.construct for u in unconverted] == ["collection EXISTS"]
    assert "None" not in out and "oracompat.aa_next_n(v, 1)" in out
