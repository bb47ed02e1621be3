"""``TABLE(f(...))`` in a FROM clause of plain SQL (a view, a query outside PL/SQL): the rows of a
collection a function returns (rule sql.table_collection). A PIPELINED function is read as the set
it returns, a function returning a nested table or VARRAY through unnest; a scalar element is the
column COLUMN_VALUE, a record's or object's fields are columns — as in Oracle. The function's
signature comes from the catalog (`migrator.convert.plsql.prepare`); inside PL/SQL the emitter,
which also knows local collection variables, does the same (`plsql/emit_collections.py`).
"""

from __future__ import annotations

from sqlglot import exp

from harness.quoting import qualified
from migrator.convert import type_hierarchy as hier
from migrator.convert.context import CatalogEntry, ConversionContext
from migrator.convert.schema_model import CollectionType, ObjectType
from migrator.convert.sql.nodes import fn, marker
from migrator.source.identifiers import fold


def table_function(node: exp.Table, ctx: ConversionContext, env) -> exp.Expression | None:
    call = node.this
    if not (isinstance(call, exp.Anonymous) and call.name.upper() == "TABLE" and len(call.expressions) == 1):
        return None
    inner = call.expressions[0]
    if isinstance(inner, exp.Column) and inner.table and not inner.args.get("db"):
        # TABLE(pkg.f): a function called without parentheses
        inner = exp.Dot(this=exp.to_identifier(inner.table), expression=exp.Anonymous(this=inner.name, expressions=[]))
    shape = _shape(inner, ctx)
    if shape is None:
        return marker(ctx, "TABLE()", node, _reason(inner, ctx))
    if not ctx.enabled("sql.table_collection"):
        return marker(ctx, "TABLE()", node, "rule sql.table_collection is disabled")
    ctx.applied("sql.table_collection")
    setof, composite = shape
    source = inner if setof else fn("unnest", inner)
    if composite:
        select = exp.select(exp.Star()).from_(exp.Table(this=source))
    else:
        alias = exp.TableAlias(this=exp.to_identifier("u"), columns=[exp.to_identifier("column_value")])
        select = exp.select(exp.column("column_value", table="u")).from_(exp.Table(this=source, alias=alias))
    alias = node.args.get("alias") or exp.TableAlias(this=exp.to_identifier("table__"))
    return exp.Lateral(this=exp.Subquery(this=select), alias=alias)


def _shape(inner: exp.Expression, ctx: ConversionContext) -> tuple[bool, bool] | None:
    """(PIPELINED, elements composite) for a call of a catalog function returning a collection."""
    if (
        isinstance(inner, exp.Dot)
        and isinstance(inner.this, exp.Identifier)
        and isinstance(inner.expression, exp.Anonymous)
    ):
        pkg, name = inner.this.name, inner.expression.name
        entry = ctx.catalog.lookup(pkg)
        info = entry.package if entry is not None else None
        sigs = info.routines.get(fold(name)) if info else None
        types = info.types if info else {}
    elif isinstance(inner, exp.Anonymous):
        entry = ctx.catalog.lookup(fold(inner.name))
        sigs = entry.routines if entry is not None else None
        types = {}
    else:
        return None
    routine = sigs[0] if sigs else None
    if routine is None or routine.returns is None or routine.kind != "FUNCTION":
        return None
    ret = "".join(t.text for t in routine.returns.toks)
    types = _types_of(ret, types, ctx)
    elem = _element(ret, types, ctx)
    if elem is None:
        return None
    return bool(routine.pipelined), _composite(elem, types, ctx)


def _types_of(type_name: str, types: dict, ctx: ConversionContext) -> dict:
    """The package types a return type `pkg.t` (or `owner.pkg.t`) is read among: that package's,
    when it names another package; the calling function's package's otherwise."""
    parts = [fold(p) for p in type_name.split(".")]
    if len(parts) < 2:
        return types
    entry = ctx.catalog.lookup(*parts[:-1])
    info = entry.package if entry is not None else None
    return info.types if info is not None else types


def _reason(inner: exp.Expression, ctx: ConversionContext) -> str:
    """Why TABLE(inner) has no known rows, naming what is missing."""
    text = inner.sql(dialect="oracle")
    if len(text) > 80:
        text = text[:77] + "..."
    if isinstance(inner, exp.Dot) and isinstance(inner.this, exp.Identifier):
        pkg, name = inner.this.name, inner.expression.name
        entry = ctx.catalog.lookup(fold(pkg))
        info = entry.package if entry is not None else None
        if info is None:
            return f"TABLE({text}): {pkg} is not a package of the export"
        sigs = info.routines.get(fold(name))
        if not sigs:
            return f"TABLE({text}): package {pkg} declares no function {name}"
        routine = sigs[0]
    elif isinstance(inner, exp.Anonymous):
        if inner.name.upper() == "XMLSEQUENCE":
            return f"TABLE({text}): XMLSEQUENCE over an XMLTYPE is not converted (PostgreSQL's XMLTABLE or xpath)"
        entry = ctx.catalog.lookup(fold(inner.name))
        if entry is None or not entry.routines:
            return f"TABLE({text}): no function {inner.name} in the export"
        routine = entry.routines[0]
    else:
        return (
            f"TABLE({text}): not a collection variable nor a call of a function returning a collection type"
            " declared in the export"
        )
    if routine.returns is None or routine.kind != "FUNCTION":
        return f"TABLE({text}): {routine.name} is not a function"
    ret = "".join(t.text for t in routine.returns.toks)
    return (
        f"TABLE({text}): return type {ret} of {routine.name} is not a nested table or VARRAY type declared"
        " in the export"
    )


def _element(type_name: str, types: dict, ctx: ConversionContext) -> str | None:
    """The Oracle element type of a collection type named by `type_name` (package or schema)."""
    name = fold(type_name.split(".")[-1])
    decl = types.get(name)
    if decl is not None and decl.kind in ("table", "varray") and decl.elem is not None:
        return " ".join(t.text for t in decl.elem.toks)
    entry = ctx.catalog.lookup(*[fold(p) for p in type_name.split(".")])
    info = entry.plsql_type if entry is not None else None
    if isinstance(info, CollectionType):
        return info.element
    return None


def _composite(elem: str, types: dict, ctx: ConversionContext) -> bool:
    if "%ROWTYPE" in elem.upper():
        return True
    name = fold(elem.split(".")[-1]) if "(" not in elem else ""
    decl = types.get(name)
    if decl is not None and decl.kind == "record":
        return True
    entry = ctx.catalog.lookup(*[fold(p) for p in elem.split(".")]) if name else None
    return entry is not None and isinstance(entry.plsql_type, ObjectType)


def qualified_type_constructor(node: exp.Dot, ctx: ConversionContext, env) -> exp.Expression | None:
    """``schema.t(a, b)``: the constructor of another schema's (or Oracle's, MDSYS.SDO_GEOMETRY)
    object or collection type, converted as `type_constructor` converts an unqualified one."""
    call, owner = node.expression, node.this
    if not isinstance(call, exp.Anonymous) or not isinstance(call.this, str) or not isinstance(owner, exp.Identifier):
        return None
    schema = owner.name if owner.quoted else owner.name.lower()
    entry = ctx.catalog.lookup(schema, fold(call.this))
    if entry is None or entry.plsql_type is None:
        return None
    return type_constructor(call, ctx, env, entry)


def type_constructor(
    node: exp.Anonymous, ctx: ConversionContext, env, entry: CatalogEntry | None = None
) -> exp.Expression | None:
    """``t(a, b)`` for a schema-level object or collection type in SQL (rule expr.type_constructor):
    an object's attribute-value constructor is ``CAST(ROW(a, b) AS t)`` — or the type's own
    CONSTRUCTOR function ``t__new(a, b)`` when it declares one with as many parameters — and a
    nested table's or VARRAY's is ``CAST(ARRAY[a, b] AS t)``."""
    if not isinstance(node.this, str):
        return None
    entry = entry or ctx.catalog.lookup(fold(node.this))
    info = entry.plsql_type if entry is not None else None
    if entry is None or info is None:
        return None
    if not ctx.enabled("expr.type_constructor"):
        return marker(ctx, "type constructor", node, "rule expr.type_constructor is disabled")
    ctx.applied("expr.type_constructor")
    args = list(node.expressions)
    target = exp.DataType.build(qualified(entry.schema, entry.name), dialect="postgres", udt=True)
    if isinstance(info, ObjectType):
        own = entry.methods.get(entry.name, [])
        if any(
            r.flavour == "CONSTRUCTOR" and sum(p.default is None for p in r.params) <= len(args) <= len(r.params)
            for r in own
        ):
            call = exp.Anonymous(this=f"{entry.name}__new", expressions=args)
            call.meta["ora_done"] = True
            return exp.Paren(this=exp.Dot(this=exp.to_identifier(entry.schema), expression=call))
        key = (entry.schema, entry.name)
        if hier.in_hierarchy(ctx.catalog, key):  # the hierarchy's composite (type_hierarchy.row_values)
            where = {a: n for n, a in enumerate(hier.attributes(ctx.catalog, key))}
            if len(args) != len(where):
                return marker(ctx, "type constructor", node, f"{entry.name}: wrong number of arguments")
            args = [args[where[a]] if a in where else exp.Null() for a in hier.layout(ctx.catalog, key)]
            args.append(exp.Literal.string(hier.tag(key)))
        return exp.Paren(this=exp.cast(fn("ROW", *args), target))  # (...) so that .attribute reads it
    if not args:
        return exp.cast(exp.Literal.string("{}"), target)
    return exp.cast(exp.Array(expressions=args), target)


_REFERENCE_FUNCTIONS = frozenset({"REF", "DEREF", "MAKE_REF", "REFTOHEX"})


def object_reference(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    """REF(alias), DEREF(r), MAKE_REF(table, key), REFTOHEX(r): making or following a reference
    to a row object needs the object identifiers of object tables and views, which are not
    converted (`oracompat/object_refs.py`): refused with that reason rather than left for
    PostgreSQL to call a function that does not exist."""
    name = node.name.upper() if isinstance(node.this, str) else ""
    if name not in _REFERENCE_FUNCTIONS or ctx.catalog.lookup(fold(node.name)) is not None:
        return None
    return marker(
        ctx,
        f"object reference {name}",
        node,
        "making or following a REF needs object identifiers of object tables/views, which are not converted",
    )


def cast_multiset(node: exp.Cast, ctx: ConversionContext, env) -> exp.Expression | None:
    """``CAST(MULTISET(subquery) AS coll_t)`` (rule expr.cast_multiset): the nested table or VARRAY
    of the subquery's rows, in its order (empty when it has none — an empty collection, not NULL:
    SQL Language Reference, "CAST" / "MULTISET") → ``CAST(ARRAY(subquery) AS coll_t)``. Rows of an
    object element type are built as the element (``ROW(a, b)::elem``) from the select list's
    attribute values; a select list of one item is the element itself."""
    inner = node.this
    if not (isinstance(inner, exp.Anonymous) and isinstance(inner.this, str) and inner.name.upper() == "MULTISET"):
        return None
    if len(inner.expressions) != 1:
        return None
    subquery = inner.expressions[0]
    subquery = subquery.this if isinstance(subquery, exp.Subquery) else subquery
    if not isinstance(subquery, exp.Select):
        return None
    to = node.to
    kind = to.args.get("kind") if to.this is exp.DataType.Type.USERDEFINED else None
    parts = [fold(p) for p in str(kind or "").split(".") if p]
    entry = ctx.catalog.lookup(*parts) if 1 <= len(parts) <= 2 else None
    info = entry.plsql_type if entry is not None else None
    if entry is None or not isinstance(info, CollectionType):
        return marker(ctx, "CAST(MULTISET)", node, "the target is not a nested table or VARRAY type of the export")
    if not ctx.enabled("expr.cast_multiset"):
        return marker(ctx, "CAST(MULTISET)", node, "rule expr.cast_multiset is disabled")
    query = subquery.copy()
    elem = ctx.catalog.lookup(*[fold(p) for p in info.element.split(".")]) if "(" not in info.element else None
    items = query.expressions
    if elem is not None and isinstance(elem.plsql_type, ObjectType) and len(items) > 1:
        key = (elem.schema, elem.name)
        if hier.in_hierarchy(ctx.catalog, key):
            return marker(ctx, "CAST(MULTISET)", node, f"{elem.name}: elements of a type hierarchy")
        if len(items) != len(elem.plsql_type.attributes):
            return marker(ctx, "CAST(MULTISET)", node, f"{elem.name}: the subquery's columns are not its attributes")
        values = [i.this if isinstance(i, exp.Alias) else i for i in items]
        target = exp.DataType.build(qualified(elem.schema, elem.name), dialect="postgres", udt=True)
        query.set("expressions", [exp.cast(fn("ROW", *values), target)])
    elif len(items) != 1:
        return marker(ctx, "CAST(MULTISET)", node, "a subquery of several columns into a collection of scalars")
    ctx.applied("expr.cast_multiset")
    coll = exp.DataType.build(qualified(entry.schema, entry.name), dialect="postgres", udt=True)
    return exp.cast(exp.Array(expressions=[query]), coll)


# ---- nested tables in SQL conditions and expressions (rule expr.multiset) ---------------------------
def is_empty(node: exp.Is, ctx: ConversionContext, env) -> exp.Expression | None:
    """coll IS [NOT] EMPTY → cardinality(coll) = 0 (NULL for a NULL collection, as in Oracle; the
    NOT stays around it)."""
    right = node.expression
    if not (
        isinstance(right, exp.Column) and not right.table and right.name.upper() == "EMPTY" and not right.this.quoted
    ):
        return None
    if not ctx.enabled("expr.multiset"):
        return marker(ctx, "IS EMPTY", node, "rule expr.multiset is disabled")
    ctx.applied("expr.multiset")
    count = fn("cardinality", node.this)
    count.meta["ora_done"] = True
    return exp.EQ(this=count, expression=exp.Literal.number(0))


def cardinality(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    """CARDINALITY(coll): its number of elements, NULL for an empty or NULL collection (Oracle),
    where PostgreSQL's cardinality gives 0 for an empty array."""
    if str(node.this).upper() != "CARDINALITY" or len(node.expressions) != 1:
        return None
    if not ctx.enabled("expr.multiset"):
        return marker(ctx, "CARDINALITY", node, "rule expr.multiset is disabled")
    ctx.applied("expr.multiset")
    count = fn("cardinality", node.expressions[0])
    count.meta["ora_done"] = True  # PostgreSQL's own cardinality now, not read as Oracle's again
    return fn("NULLIF", count, exp.Literal.number(0))
