"""The resolver (`migrator.convert.plsql.resolver`) on its own: no Emitter, no `pre` buffer. A
name in nested scopes, %TYPE / %ROWTYPE anchors, a package's types and variables, schema-level
collection and object types, record and collection declarations — the PgType and the DDL it
returns — and signatures computed from the resolver alone."""

from __future__ import annotations

from migrator.convert.plsql import ast as A
from migrator.convert.plsql.prepare import parsed
from migrator.convert.plsql.resolver import CursorView, Resolver, distinct, signature
from migrator.convert.plsql.symbols import PgType, Scope, Sym
from migrator.source.lexer import tokenize
from tests.migrator.plsql_support import context_for, split_sql

SCHEMA = """
CREATE TABLE emp (id NUMBER(10), name VARCHAR2(30), hired DATE);
CREATE TYPE num_list AS TABLE OF NUMBER;
/
CREATE TYPE point_t AS OBJECT (x NUMBER, y NUMBER);
/
CREATE OR REPLACE PACKAGE hr IS
  SUBTYPE money_t IS NUMBER(12, 2);
  TYPE name_tab IS TABLE OF VARCHAR2(30);
  TYPE emp_rec IS RECORD (id emp.id%TYPE, total money_t);
  g_rate money_t;
  g_last emp_rec;
  e_busy EXCEPTION;
  PRAGMA EXCEPTION_INIT(e_busy, -54);
  PROCEDURE raise_pay(p_id emp.id%TYPE, p_amount money_t);
  FUNCTION names RETURN name_tab;
END hr;
/
"""


def _unit_ctx(extra: str = ""):
    units = split_sql(SCHEMA + extra)
    return units, context_for(units)


def _ref(text: str) -> A.TypeRef:
    return A.TypeRef(tokenize(text))


def _resolver(pkg: str | None = None) -> Resolver:
    return Resolver(_unit_ctx()[1], "s", pkg)


def _type(res: Resolver, text: str, scope: Scope | None = None) -> PgType:
    t, ddl = res.resolve_type(_ref(text), scope or Scope(), ("s",))
    assert ddl == []
    return t


def _declared(res: Resolver, decls: list, owner=("s", "p")) -> tuple[Scope, list]:
    """A block's declarations walked as the emitter walks them, the DDL collected in order."""
    scope, ddl = Scope(), []
    for d in decls:
        if isinstance(d, A.TypeDecl):
            ddl += res.type_decl(d, scope, owner)[1]
        elif isinstance(d, A.VarDecl):
            t, needs = res.resolve_type(d.type, scope, owner)
            ddl += needs
            scope.add(Sym(d.name, "var", t))
        elif isinstance(d, A.CursorDecl):
            scope.add(Sym(d.name, "cursor", PgType("refcursor", refcursor=True), sigs=[(d, scope)]))
    return scope, ddl


def _block_decls(text: str) -> list:
    units = split_sql(text)
    tree = parsed(units[0], context_for(units)).tree
    assert isinstance(tree, A.Routine) and tree.block is not None
    return tree.block.decls


def test_builtin_and_column_anchors():
    res = _resolver()
    assert _type(res, "VARCHAR2(30)").pg == "varchar(30)"
    t = _type(res, "emp.name%TYPE")
    assert (t.pg, t.ora) == ("varchar(30)", "VARCHAR2(30)")
    assert _type(res, "s.emp.id%TYPE").ora == "NUMBER(10)"
    assert _type(res, "nosuch.col%TYPE").pg == "nosuch.col%TYPE"  # PostgreSQL resolves it, or refuses


def test_table_rowtype_keeps_the_columns():
    t = _type(_resolver(), "emp%ROWTYPE")
    assert t.composite and t.pg == "emp"
    assert t.fields == {"id": "NUMBER(10)", "name": "VARCHAR2(30)", "hired": "DATE"}


def test_names_in_nested_scopes_walk_outwards():
    res = _resolver()
    outer = Scope()
    outer.add(Sym("v", "var", PgType("integer", "PLS_INTEGER")))
    inner = outer.child().child()
    assert _type(res, "v%TYPE", inner).pg == "integer"
    inner.add(Sym("v", "var", PgType("text", "VARCHAR2(4000)")))  # the inner declaration hides it
    assert _type(res, "v%TYPE", inner).pg == "text"
    assert _type(res, "v%TYPE", outer).pg == "integer"


def test_record_field_anchor():
    res = _resolver()
    scope = Scope()
    scope.add(Sym("r", "var", PgType("emp", composite=True, fields={"hired": "DATE"})))
    assert _type(res, "r.hired%TYPE", scope).ora == "DATE"
    assert _type(res, "r.other%TYPE", scope).pg == "r.other%TYPE"


def test_package_types_and_variables():
    res = _resolver()
    money = _type(res, "hr.money_t")
    assert (money.pg, money.base) == ("hr.money_t", "numeric(12,2)")  # a domain in the package's schema
    names = _type(res, "hr.name_tab")
    assert names.pg == "hr.name_tab" and names.coll is not None and names.coll.kind == "array"
    rec = _type(res, "hr.emp_rec")
    assert rec.composite and rec.fields == {"id": "NUMBER(10)", "total": "NUMBER(12,2)"}
    assert _type(res, "hr.g_rate%TYPE").pg == "hr.money_t"
    assert _type(res, "hr.g_last.total%TYPE").pg == "numeric(12,2)"  # pkg.rec_var.field%TYPE
    # inside the package its own types are named unqualified
    assert _type(_resolver(pkg="hr"), "money_t").pg == "hr.money_t"
    assert _type(res, "money_t").pg == "money_t"


def test_package_scope_is_built_once_and_creates_nothing():
    res = _resolver()
    scope = res.pkg_scope(("hr",))
    assert scope is res.pkg_scope(("hr",))
    assert {"money_t", "name_tab", "emp_rec", "g_rate", "g_last"} <= set(scope.names)
    assert scope.names["g_rate"].getter == "hr.g_rate"
    assert res.pkg is None  # restored after building another package's scope


def test_the_value_and_the_exception_a_name_denotes():
    res = _resolver()
    scope = Scope()
    scope.add(Sym("v", "var", PgType("integer", "PLS_INTEGER")))
    scope.add(Sym("e_local", "exception", sqlstate="OU001"))
    inner = scope.child()
    assert res.value_type(["v"], inner).pg == "integer"
    assert res.value_type(["hr", "g_rate"], inner).pg == "hr.money_t"
    assert res.value_type(["nosuch"], inner) is None
    assert res.exception(("e_local",), inner).sqlstate == "OU001"
    busy = res.exception(("hr", "e_busy"), inner)
    assert busy is not None and busy.sqlstate == "55P03"  # ORA-00054: resource busy, as PostgreSQL's lock_not_available
    assert res.exception(("e_busy",), inner) is None  # unqualified only inside the package
    assert _resolver(pkg="hr").exception(("e_busy",), inner) == busy
    assert res.exception(("DBMS_ASSERT", "INVALID_SQL_NAME"), inner) is not None


def test_schema_collection_and_object_types():
    res = _resolver()
    nums = _type(res, "num_list")
    assert nums.pg == "s.num_list" and nums.coll is not None and nums.coll.elem_pg == "numeric"
    point = _type(res, "point_t")
    assert point.composite and point.object_key == ("s", "point_t") and point.fields == {"x": "NUMBER", "y": "NUMBER"}


def test_supplied_package_type():
    t = _type(_resolver(), "DBMS_SQL.VARCHAR2_TABLE")
    assert t.pg == "jsonb" and t.coll is not None and t.coll.kind == "assoc"


def test_record_and_collection_declarations_return_their_ddl():
    decls = _block_decls(
        """
CREATE OR REPLACE PROCEDURE p IS
  TYPE pair IS RECORD (a NUMBER(5), b emp.name%TYPE);
  TYPE pairs IS TABLE OF pair;
  TYPE by_name IS TABLE OF NUMBER INDEX BY VARCHAR2(30);
  v pairs;
BEGIN
  NULL;
END;
/
"""
    )
    scope, ddl = _declared(_resolver(), decls)
    assert ddl == [
        "DROP TYPE IF EXISTS s.p__pair CASCADE;\nCREATE TYPE s.p__pair AS (\n    a numeric(5),\n    b varchar(30)\n);"
    ]
    pair = scope.names["pair"].typed
    assert pair.composite and pair.fields == {"a": "NUMBER(5)", "b": "VARCHAR2(30)"}
    pairs = scope.names["v"].typed
    assert pairs.pg == "s.p__pair[]" and pairs.coll is not None and pairs.coll.elem_composite
    by_name = scope.names["by_name"].typed
    assert by_name.pg == "jsonb" and by_name.coll is not None and not by_name.coll.numeric_keys


def test_package_level_types_become_domains():
    res = _resolver()
    d = A.TypeDecl("ids", "varray", elem=_ref("NUMBER(10)"), limit=tokenize("5"))
    sym, ddl = res.type_decl(d, Scope(), ("hr",))
    assert sym.typed.pg == "hr.ids" and sym.typed.base == "numeric(10)[]"
    assert ddl == [
        "DROP DOMAIN IF EXISTS hr.ids CASCADE;\nCREATE DOMAIN hr.ids AS numeric(10)[] CHECK (cardinality(VALUE) <= 5);"
    ]


def test_cursor_rowtype_returns_its_view_for_the_caller_to_render():
    decls = _block_decls(
        """
CREATE OR REPLACE PROCEDURE p IS
  CURSOR c (p_id NUMBER) IS SELECT id, name FROM emp WHERE id = p_id;
  r c%ROWTYPE;
BEGIN
  NULL;
END;
/
"""
    )
    scope, ddl = _declared(_resolver(), decls)
    r = scope.names["r"].typed
    assert r.pg == "s.p__c_row" and r.composite and r.fields == {"id": "NUMBER(10)", "name": "VARCHAR2(30)"}
    assert len(ddl) == 1 and isinstance(ddl[0], CursorView)
    assert (
        ddl[0].name == "s.p__c_row" and ddl[0].cursor.name == "c" and [p.name for p in ddl[0].cursor.params] == ["p_id"]
    )


def test_resolving_twice_returns_the_ddl_twice():
    """Nothing is kept between two resolutions: no shared buffer to fill or to suppress."""
    res = _resolver()
    d = A.TypeDecl("pair", "record", fields=[("a", _ref("NUMBER"))])
    first = res.type_decl(d, Scope(), ("s", "p"))[1]
    second = res.type_decl(d, Scope(), ("s", "p"))[1]
    assert first == second and len(first) == 1 and "CREATE TYPE s.p__pair" in first[0]


def test_signatures_from_the_resolver_alone():
    units, ctx = _unit_ctx()
    spec = next(u for u in units if u.name == "hr")
    tree = parsed(spec, ctx).tree
    assert isinstance(tree, A.Package)
    res = Resolver(ctx, "s", pkg="hr")
    scope = res.pkg_scope(("hr",))
    routines = {d.name: d for d in tree.decls if isinstance(d, A.Routine)}
    sig, ddl = signature(res, routines["raise_pay"], ("hr", "raise_pay"), scope, ("s",))
    assert ddl == []
    assert [(p.name, p.pg, p.ora) for p in sig.params] == [
        ("p_id", "numeric(10)", "NUMBER(10)"),
        ("p_amount", "hr.money_t", "NUMBER(12,2)"),
    ]
    fn, _ = signature(res, routines["names"], ("hr", "names"), scope, ("s",))
    assert fn.kind == "FUNCTION" and fn.returns_pg == "hr.name_tab"
    assert distinct([sig, sig, fn]) == [sig, fn]


def test_prepare_signatures_writes_the_catalog_without_an_emitter():
    units, ctx = _unit_ctx(
        """
CREATE OR REPLACE FUNCTION total(p_id emp.id%TYPE) RETURN NUMBER IS
BEGIN
  RETURN 1;
END;
/
"""
    )
    entry = ctx.catalog.lookup("s", "total")
    assert entry is not None
    [sig] = entry.signatures or []
    assert sig.params[0].pg == "numeric(10)" and sig.returns_pg == "numeric"
    hr = ctx.catalog.lookup("s", "hr")
    assert hr is not None and hr.package is not None and hr.package.signatures is not None
    members = hr.package.signatures
    assert [p.pg for p in members["raise_pay"][0].params] == ["numeric(10)", "hr.money_t"]


def test_a_declarations_parts_go_through_the_callers_resolve():
    """The emitter passes its own resolve (each part's DDL placed as soon as it is resolved): the
    resolver builds the record from what that returns, in field order, and adds only its own DDL."""
    res = _resolver()
    seen = []

    def resolve(tref, scope):
        seen.append(" ".join(t.text for t in tref.toks))
        return res.resolve_type(tref, scope, ("s", "p"))[0], []

    d = A.TypeDecl("pair", "record", fields=[("a", _ref("DATE")), ("b", _ref("emp.name%TYPE"))])
    sym, ddl = res.type_decl(d, Scope(), ("s", "p"), resolve)
    assert seen == ["DATE", "emp . name % TYPE"]
    assert sym.typed.fields == {"a": "DATE", "b": "VARCHAR2(30)"}
    assert len(ddl) == 1 and ddl[0].startswith("DROP TYPE IF EXISTS s.p__pair CASCADE;")
