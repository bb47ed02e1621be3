"""PIVOT and UNPIVOT (rule sql.pivot) → a derived table PostgreSQL can run.

``src PIVOT (agg(x) [AS a] FOR c IN (v1 [AS n1], ...))`` groups the source by its other columns
and computes ``agg(x) FILTER (WHERE c = v1) AS n1`` per value: exactly Oracle's result, a COUNT
being 0 and any other aggregate NULL where no row has the value. Columns are named as Oracle names
them: the value's alias, else its text (``'CLERK'`` for a string, quotes included), then ``_`` and the
aggregate's alias when it has one. ``src UNPIVOT [INCLUDE|EXCLUDE NULLS] (v FOR c IN (col1 [AS
'L1'], ...))`` becomes a lateral VALUES list of (label, value) per source row, the rows whose
values are all NULL left out unless INCLUDE NULLS. Both need the source's column list: a table's
from the catalog, a subquery's from its select list; without it the construct is reported.
"""

from __future__ import annotations

from sqlglot import exp

from harness.quoting import pg_string
from migrator.convert.context import ConversionContext
from migrator.convert.sql.nodes import as_expression, marker
from migrator.source.identifiers import fold


def rewrite(tree: exp.Expression, ctx: ConversionContext) -> exp.Expression:
    """Every PIVOT/UNPIVOT in the tree, innermost first."""
    for source in reversed([n for n in tree.find_all(exp.Table, exp.Subquery) if n.args.get("pivots")]):
        pivot = source.args["pivots"][0]
        if len(source.args["pivots"]) > 1:
            new = marker(ctx, "PIVOT", source, "more than one PIVOT/UNPIVOT on one source")
        elif not ctx.enabled("sql.pivot"):
            new = marker(ctx, "UNPIVOT" if pivot.args.get("unpivot") else "PIVOT", source, "rule sql.pivot is disabled")
        else:
            new = (_unpivot if pivot.args.get("unpivot") else _pivot)(source, pivot, ctx)
        if source is tree:
            tree = new
        else:
            source.replace(new)
    return tree


def _columns(source: exp.Expression, ctx: ConversionContext) -> list[str] | None:
    """The plain column names a PIVOT/UNPIVOT source produces, in order."""
    if isinstance(source, exp.Table):
        parts = (source.db, source.name) if source.db else (source.name,)
        entry = ctx.catalog.lookup(*parts)
        cols = entry.table.column_types if entry is not None else None
        return [str(c).lower() for c in cols] if isinstance(cols, dict) else None
    query = source.this
    if not isinstance(query, exp.Select):
        return None
    out: list[str] = []
    for e in query.expressions:
        if isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star)):
            tables = [query.args["from_"].this] if query.args.get("from_") is not None else []
            if query.args.get("joins") or len(tables) != 1 or not isinstance(tables[0], exp.Table):
                return None
            inner = _columns(tables[0], ctx)
            if inner is None:
                return None
            out += inner
        elif e.alias_or_name:
            out.append(e.alias_or_name)
        else:
            return None
    return out


def _bare(source: exp.Expression) -> exp.Expression:
    """The source without its pivot clause (a subquery gets an alias: PostgreSQL 15 needs one)."""
    src = source.copy()
    src.set("pivots", None)
    if isinstance(src, exp.Subquery) and not src.alias:
        src.set("alias", exp.TableAlias(this=exp.to_identifier("pivot__src")))
    return src


def _oracle(plain: str) -> str:
    """A plain name as Oracle spells it (an ordinary name is upper case there)."""
    return plain.upper() if fold(plain.upper()) == plain else plain


def _plain(oracle: str) -> str:
    return fold('"' + oracle.replace('"', '""') + '"')


def _alias(source: exp.Expression, pivot: exp.Pivot, fallback: str) -> exp.TableAlias:
    name = pivot.args.get("alias") or source.args.get("alias")
    ident = name.this if isinstance(name, exp.TableAlias) else name
    if not isinstance(ident, exp.Identifier):
        ident = exp.to_identifier(fallback)
    return exp.TableAlias(this=ident.copy())


def _value_name(value: exp.Expression) -> str:
    """Oracle's name for a PIVOT column without an alias: the value as written."""
    if isinstance(value, exp.Literal) and value.is_string:
        return pg_string(value.this)
    return value.sql(dialect="oracle")


def _pivot(source: exp.Expression, pivot: exp.Pivot, ctx: ConversionContext) -> exp.Expression:
    fields = pivot.args.get("fields") or []
    cols = _columns(source, ctx)
    if len(fields) != 1 or not isinstance(fields[0], exp.In) or cols is None:
        why = "the source's columns are not known" if cols is None else "one FOR ... IN list supported"
        return marker(ctx, "PIVOT", source, why)
    ctx.applied("sql.pivot")
    field = fields[0]
    keys = field.this.expressions if isinstance(field.this, exp.Tuple) else [field.this]
    key_names = {k.name.lower() for k in keys}
    aggs = [(e.this, e.alias) if isinstance(e, exp.Alias) else (e, "") for e in pivot.expressions]
    used = {c.name.lower() for agg, _ in aggs for c in agg.find_all(exp.Column)}
    group = [c for c in cols if c not in key_names and c not in used]
    select = exp.select(*[exp.column(c) for c in group])
    for item in field.expressions:
        value, alias = (item.this, item.alias) if isinstance(item, exp.PivotAlias) else (item, "")
        values = value.expressions if isinstance(value, exp.Tuple) else [value]
        cond = exp.and_(*[exp.EQ(this=k.copy(), expression=v.copy()) for k, v in zip(keys, values, strict=True)])
        base = _oracle(alias) if alias else _value_name(value)
        for agg, agg_alias in aggs:
            name = _plain(f"{base}_{_oracle(agg_alias)}" if agg_alias else base)
            filtered = exp.Filter(this=agg.copy(), expression=exp.Where(this=cond.copy()))
            select = select.select(exp.alias_(filtered, exp.to_identifier(name)))
    select = select.from_(_bare(source))
    if group:
        select = select.group_by(*[exp.column(c) for c in group])
    return exp.Subquery(this=select, alias=_alias(source, pivot, "pivot__"))


def _unpivot(source: exp.Expression, pivot: exp.Pivot, ctx: ConversionContext) -> exp.Expression:
    fields = pivot.args.get("fields") or []
    cols = _columns(source, ctx)
    if len(fields) != 1 or not isinstance(fields[0], exp.In) or cols is None:
        why = "the source's columns are not known" if cols is None else "one FOR ... IN list supported"
        return marker(ctx, "UNPIVOT", source, why)
    ctx.applied("sql.pivot")
    field = fields[0]
    label = field.this.name
    measures = [m.name if isinstance(m, (exp.Identifier, exp.Column)) else m.sql() for m in pivot.expressions]
    src_alias = "unpivot__src"
    rows, unpivoted = [], set()
    for item in field.expressions:
        value, text = (item.this, item.args.get("alias")) if isinstance(item, exp.PivotAlias) else (item, None)
        members = value.expressions if isinstance(value, exp.Tuple) else [value]
        unpivoted |= {m.name.lower() for m in members}
        if text is None:
            names = "_".join(m.name.upper() if m.name == m.name.lower() else m.name for m in members)
            lab: exp.Expression = exp.Literal.string(names)
        else:
            lab = text.copy()
        rows.append(exp.Tuple(expressions=[lab] + [exp.column(m.name, table=src_alias) for m in members]))
    kept = [c for c in cols if c not in unpivoted]
    values = exp.Values(
        expressions=rows,
        alias=exp.TableAlias(
            this=exp.to_identifier("unpivot__u"),
            columns=[exp.to_identifier(n) for n in [label, *measures]],
        ),
    )
    inner = exp.select(
        *[exp.column(c, table=src_alias) for c in kept],
        *[exp.column(n, table="unpivot__u") for n in [label, *measures]],
    )
    src = _bare(source)
    src.set("alias", exp.TableAlias(this=exp.to_identifier(src_alias)))
    inner = inner.from_(src).join(exp.Lateral(this=values), join_type="CROSS")
    if not pivot.args.get("include_nulls"):
        present = exp.or_(
            *[exp.Not(this=exp.Is(this=exp.column(m, table="unpivot__u"), expression=exp.Null())) for m in measures]
        )
        inner = inner.where(present)
    return exp.Subquery(this=as_expression(inner), alias=_alias(source, pivot, "unpivot__"))
