"""CONNECT BY / START WITH / LEVEL / PRIOR / SYS_CONNECT_BY_PATH / CONNECT_BY_ROOT → WITH RECURSIVE.

Shape produced (for ``SELECT cols FROM t a WHERE w START WITH s CONNECT BY PRIOR x = y``)::

    WITH RECURSIVE connect_by AS (
      SELECT a.*, 1 AS cb_level, ARRAY[a.ctid] AS cb_rows, ARRAY[ROW_NUMBER() OVER (...)] AS cb_sort, ...
      FROM t AS a WHERE s
      UNION ALL
      SELECT a.*, prior_row.cb_level + 1, prior_row.cb_rows || a.ctid, prior_row.cb_sort || ROW_NUMBER() OVER (...), ...
      FROM t AS a JOIN connect_by AS prior_row ON x' = y AND a.ctid <> ALL(prior_row.cb_rows))
    SELECT cols' FROM connect_by AS a WHERE w ORDER BY a.cb_sort

``cb_sort`` (one row number per level, ordered by ORDER SIBLINGS BY when given) reproduces
Oracle's depth-first output order; ``cb_rows`` holds the path's rows, for NOCYCLE and loops.
WHERE is applied after the hierarchy is built, as in Oracle. Without NOCYCLE a row that is its own
ancestor raises ORA-01436 (CONNECT BY loop in user data) when the walk reaches it, as Oracle does;
with NOCYCLE the walk stops there, and CONNECT_BY_ISCYCLE is 1 for a row with a child among its
ancestors (a probe like CONNECT_BY_ISLEAF's). One table, view or WITH query (the last two have
no ctid: their rows are numbered once in a materialized ``cb_source``); other shapes are reported.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from harness.quoting import quote_ident
from migrator.convert.context import ConversionContext
from migrator.convert.sql.expression_types import TypeEnv
from migrator.convert.sql.nodes import as_expression, fn, marker
from migrator.source.units import UnitKind

CTE, PRIOR = "connect_by", "prior_row"


def connect_by(select: exp.Select, ctx: ConversionContext, env: TypeEnv) -> exp.Expression:
    conn = select.args.get("connect")
    if conn is None or not ctx.enabled("sql.connect_by"):
        return select
    from_ = select.args.get("from_")
    table = from_.this if from_ is not None else None
    if from_ is None and not select.args.get("joins") and not any(select.find_all(exp.Prior)):
        return _generator(select, conn, ctx)
    why = _unsupported(select, table)
    if why:
        return marker(ctx, "CONNECT BY", select, why)
    assert isinstance(table, exp.Table)  # _unsupported refuses anything else
    alias = table.alias_or_name
    star = _expand_star(select, table, alias, env)
    if star is False:
        return marker(ctx, "CONNECT BY", select, "SELECT * needs the table's columns (not in the catalog)")
    ctx.applied("sql.connect_by")
    own = _column_test(table, env)
    source: exp.CTE | None = None
    rid = "ctid"
    if _without_ctid(select, table, ctx):
        # a WITH query or a view has no ctid: its rows are numbered once, in a materialized CTE every
        # step of the walk reads, so a row keeps its number on the path (cycles, NOCYCLE)
        source, rid = _numbered_source(table, alias), "cb_id"
        table = exp.to_table(SOURCE)
        table.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
    extras = _Extras(
        alias,
        _is_leaf(table, alias, conn.args["connect"], own),
        _is_cycle(table, alias, conn.args["connect"], own, rid),
    )
    outer_exprs = [extras.outer(e) for e in select.expressions]
    cte = _cte(table, alias, conn, select.args.get("order"), extras, own, rid)
    outer = exp.select(*outer_exprs).from_(exp.to_table(CTE).as_(alias))
    if select.args.get("where") is not None:
        outer.set("where", exp.Where(this=extras.outer(select.args["where"].this)))
    aggregated = select.args.get("group") is not None or any(_aggregates(e, select) for e in select.expressions)
    if not aggregated:  # the hierarchy's order; an aggregate returns one row per group anyway
        outer.set("order", _outer_order(select.args.get("order"), alias, extras))
    elif select.args.get("order") is not None and not select.args["order"].args.get("siblings"):
        outer.set("order", extras.outer(select.args["order"]))
    for key in ("distinct", "group", "having", "limit"):
        outer.set(key, select.args.get(key))
    withs = select.args.get("with_")
    ctes = (withs.expressions if withs else []) + ([source] if source is not None else []) + [cte]
    outer.set("with_", exp.With(expressions=ctes, recursive=True))
    return outer


SOURCE = "cb_source"


def _without_ctid(select: exp.Select, table: exp.Table, ctx: ConversionContext) -> bool:
    """The hierarchy's rows come from a WITH query (of this query or one around it) or a view of
    the export: no ctid to tell its rows apart."""
    name = table.name.lower()
    node: exp.Expr | None = select
    while node is not None:
        withs = node.args.get("with_") if isinstance(node, exp.Query) else None
        if withs is not None and any(c.alias_or_name.lower() == name for c in withs.expressions):
            return True
        node = node.parent
    entry = ctx.catalog.lookup(*[p.name.lower() for p in table.parts]) if ctx.catalog is not None else None
    return entry is not None and entry.kind is UnitKind.VIEW


def _numbered_source(table: exp.Table, alias: str) -> exp.CTE:
    base = table.copy()
    base.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
    query = exp.select(
        exp.Column(this=exp.Star(), table=exp.to_identifier(alias)),
        exp.alias_(exp.Window(this=exp.RowNumber()), "cb_id"),
    ).from_(base)
    return exp.CTE(this=query, alias=exp.TableAlias(this=exp.to_identifier(SOURCE)), materialized=True)


def _generator(select: exp.Select, conn: exp.Connect, ctx: ConversionContext) -> exp.Expression:
    """A hierarchy over one row (FROM DUAL, already dropped) without PRIOR: Oracle's row generator,
    ``SELECT LEVEL ... FROM dual [START WITH s] CONNECT BY c``. The one row is its own child at every
    level while c holds with LEVEL standing for the child's level (the root is not tested against
    c, as in Oracle), so the rows are levels 1, 2, ... up to the first level where c fails."""
    if any(
        isinstance(n, exp.Column) and not n.table and n.name.upper() in ("CONNECT_BY_ISCYCLE", "CONNECT_BY_ISLEAF")
        for n in select.find_all(exp.Column)
    ) or any(select.find_all(exp.ConnectByRoot)):
        return marker(ctx, "CONNECT BY", select, "CONNECT_BY_ISLEAF/ISCYCLE/ROOT in a row generator over DUAL")
    if any(isinstance(n, exp.Anonymous) and n.name.upper() == "SYS_CONNECT_BY_PATH" for n in select.walk()):
        return marker(ctx, "CONNECT BY", select, "SYS_CONNECT_BY_PATH in a row generator over DUAL")
    ctx.applied("sql.connect_by")

    def level(to: str):
        def fix(n: exp.Expression) -> exp.Expression:
            if isinstance(n, exp.Column) and not n.table and n.name.upper() == "LEVEL":
                return exp.Paren(this=_p(to, bare=True))
            return n

        return fix

    anchor = exp.select(exp.alias_(exp.Literal.number(1), "cb_level"))
    if conn.args.get("start") is not None:
        anchor.set("where", exp.Where(this=conn.args["start"].copy().transform(level("1"))))
    step = (
        exp.select(_p(f"{CTE}.cb_level + 1", bare=True))
        .from_(exp.to_table(CTE))
        .where(conn.args["connect"].copy().transform(level(f"{CTE}.cb_level + 1")))
    )
    cte = exp.CTE(
        this=exp.Union(this=anchor, expression=step, distinct=False), alias=exp.TableAlias(this=exp.to_identifier(CTE))
    )
    outer = select.copy()
    outer.set("connect", None)
    outer = outer.transform(level(f"{CTE}.cb_level"))
    assert isinstance(outer, exp.Select)
    outer.set("from_", exp.From(this=exp.to_table(CTE)))
    aggregated = select.args.get("group") is not None or any(_aggregates(e, select) for e in select.expressions)
    order = select.args.get("order")
    if order is not None and order.args.get("siblings"):
        outer.set("order", None)
        order = None
    if order is None and not aggregated:  # Oracle gives the levels in order
        outer.set("order", exp.Order(expressions=[exp.Ordered(this=exp.column("cb_level", table=CTE))]))
    withs = select.args.get("with_")
    outer.set("with_", exp.With(expressions=(withs.expressions if withs else []) + [cte], recursive=True))
    return outer


def _unsupported(select: exp.Select, table) -> str | None:
    if not isinstance(table, exp.Table) or select.args.get("joins"):
        return "hierarchical query over a join or subquery (one base table supported)"
    conn = select.args["connect"]
    for col in select.find_all(exp.Column):
        if col.name.upper() == "CONNECT_BY_ISCYCLE" and not col.table and not conn.args.get("nocycle"):
            return "CONNECT_BY_ISCYCLE without NOCYCLE (Oracle refuses it: ORA-30930)"
    return None


def _expand_star(select: exp.Select, table: exp.Table, alias: str, env: TypeEnv):
    if not any(
        isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))
        for e in select.expressions
    ):
        return True
    cols = env.aliases.get(table.name.lower())
    if not cols:
        return False
    new = []
    for e in select.expressions:
        star = isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))
        new.extend([exp.column(c, table=alias) for c in cols] if star else [e])
    select.set("expressions", new)
    return True


class _Extras:
    """Columns the CTE carries for LEVEL, SYS_CONNECT_BY_PATH and CONNECT_BY_ROOT."""

    def __init__(self, alias: str, is_leaf: exp.Expression, is_cycle: exp.Expression):
        self.alias = alias
        self.is_leaf = is_leaf
        self.is_cycle = is_cycle
        self.paths: list[tuple[exp.Expression, exp.Expression]] = []  # (column expr, separator)
        self.roots: list[exp.Expression] = []

    def outer(self, node: exp.Expression) -> exp.Expression:
        return node.transform(self._outer_node)

    def _outer_node(self, node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Column) and not node.table and node.name.upper() == "LEVEL":
            return exp.column("cb_level", table=self.alias)
        if isinstance(node, exp.Column) and not node.table and node.name.upper() == "CONNECT_BY_ISLEAF":
            return self.is_leaf.copy()
        if isinstance(node, exp.Column) and not node.table and node.name.upper() == "CONNECT_BY_ISCYCLE":
            return self.is_cycle.copy()
        if isinstance(node, exp.Anonymous) and node.name.upper() == "SYS_CONNECT_BY_PATH":
            self.paths.append((node.expressions[0], node.expressions[1]))
            return exp.column(f"cb_path_{len(self.paths)}", table=self.alias)
        if isinstance(node, exp.ConnectByRoot):
            self.roots.append(node.this)
            return exp.column(f"cb_root_{len(self.roots)}", table=self.alias)
        return node


def _is_leaf(table: exp.Table, alias: str, cond: exp.Expression, own) -> exp.Expression:
    """CONNECT_BY_ISLEAF: 1 when no row satisfies the CONNECT BY condition as this row's child."""
    has_child = exp.Exists(this=_child_probe(table, alias, cond, own))
    return exp.Case(ifs=[exp.If(this=has_child, true=exp.Literal.number(0))], default=exp.Literal.number(1))


def _is_cycle(table: exp.Table, alias: str, cond: exp.Expression, own, rid: str = "ctid") -> exp.Expression:
    """CONNECT_BY_ISCYCLE: 1 when a child of this row is also one of its ancestors (or itself)."""
    probe = _child_probe(table, alias, cond, own)
    probe = probe.where(_p(f"cb_child.{rid} = ANY({{a}}.cb_rows)", alias, bare=True))
    return exp.Case(
        ifs=[exp.If(this=exp.Exists(this=probe), true=exp.Literal.number(1))], default=exp.Literal.number(0)
    )


def _child_probe(table: exp.Table, alias: str, cond: exp.Expression, own) -> exp.Select:
    """SELECT 1 FROM <table> cb_child WHERE cb_child is a child of this row."""

    def fix(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Prior):
            return exp.Paren(
                this=n.this.copy().transform(
                    lambda c: exp.column(c.this.copy(), table=alias) if isinstance(c, exp.Column) else c
                )
            )
        if isinstance(n, exp.Column) and not n.table and n.name.upper() == "LEVEL":
            return exp.Paren(this=sqlglot.parse_one(f"{quote_ident(alias)}.cb_level + 1", read="postgres"))
        if isinstance(n, exp.Column) and ((not n.table and own(n.name)) or n.table.lower() == alias.lower()):
            return exp.column(n.this.copy(), table="cb_child")
        return n

    child = table.copy()
    child.set("alias", exp.TableAlias(this=exp.to_identifier("cb_child")))
    return exp.select("1").from_(child).where(cond.copy().transform(fix))


def _column_test(table: exp.Table, env: TypeEnv):
    """Is a bare name a column of the base table? PL/SQL parameters and variables (passed in as
    ``types``) are not, and qualifying them would make them unknown columns (42703). Without
    catalog columns every name that is not a known variable counts as a column."""
    cols = env.aliases.get(table.name.lower())
    if cols is not None:
        return lambda name: name.lower() in cols
    return lambda name: name.lower() not in env.variables


def _qualify(node: exp.Expression, alias: str, own, prior: bool = False) -> exp.Expression:
    """Columns of the base table get its alias (the join makes bare names ambiguous)."""

    def fix(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Column) and not n.table and n.name.upper() != "LEVEL" and own(n.name):
            return exp.column(n.this.copy(), table=PRIOR if prior else alias)
        if prior and isinstance(n, exp.Column) and n.table.lower() == alias.lower():
            return exp.column(n.this.copy(), table=PRIOR)
        return n

    return node.copy().transform(fix)


def _cte(table: exp.Table, alias: str, conn: exp.Connect, order, extras: _Extras, own, rid: str = "ctid") -> exp.CTE:
    siblings = (
        [_qualify(o, alias, own) for o in order.expressions] if order is not None and order.args.get("siblings") else []
    )
    rn = exp.Window(this=exp.RowNumber(), order=exp.Order(expressions=siblings) if siblings else None)
    base = table.copy()
    base.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
    anchor = exp.select(
        exp.Column(this=exp.Star(), table=exp.to_identifier(alias)),
        exp.alias_(exp.Literal.number(1), "cb_level"),
        exp.alias_(exp.Array(expressions=[exp.column(rid, table=alias)]), "cb_rows"),
        exp.alias_(exp.Array(expressions=[rn.copy()]), "cb_sort"),
        *[
            exp.alias_(fn("CONCAT", sep, _qualify(col, alias, own)), f"cb_path_{i}")
            for i, (col, sep) in enumerate(extras.paths, 1)
        ],
        *[exp.alias_(_qualify(col, alias, own), f"cb_root_{i}") for i, col in enumerate(extras.roots, 1)],
    ).from_(base.copy())
    if conn.args.get("start") is not None:
        anchor.set("where", exp.Where(this=_qualify(conn.args["start"], alias, own)))
    nocycle = bool(conn.args.get("nocycle"))
    # NOCYCLE: a row already on the path is not joined again. Without it such a row is ORA-01436, raised
    # in cb_rows (a column the next step reads, so it is always computed).
    rows = (
        "cb_rows || {a}.ctid"
        if nocycle
        else (
            "CASE WHEN {a}.ctid = ANY(prior_row.cb_rows) THEN oracompat.connect_by_loop(prior_row.cb_rows || {a}.ctid)"
            " ELSE prior_row.cb_rows || {a}.ctid END"
        )
    ).replace(".ctid", f".{rid}")
    recursive = (
        exp.select(
            exp.Column(this=exp.Star(), table=exp.to_identifier(alias)),
            _p("cb_level + 1"),
            _p(rows, alias, bare=not nocycle),
            _done(exp.DPipe(this=exp.column("cb_sort", table=PRIOR), expression=rn)),
            *[
                fn("CONCAT", exp.column(f"cb_path_{i}", table=PRIOR), sep.copy(), _qualify(col, alias, own))
                for i, (col, sep) in enumerate(extras.paths, 1)
            ],
            *[exp.column(f"cb_root_{i}", table=PRIOR) for i in range(1, len(extras.roots) + 1)],
        )
        .from_(base)
        .join(
            exp.to_table(CTE).as_(PRIOR),
            on=exp.and_(
                _connect_cond(conn.args["connect"], alias, own),
                *([_p(f"{{a}}.{rid} <> ALL(prior_row.cb_rows)", alias, bare=True)] if nocycle else []),
            ),
        )
    )
    union = exp.Union(this=anchor, expression=recursive, distinct=False)
    return exp.CTE(this=union, alias=exp.TableAlias(this=exp.to_identifier(CTE)))


def _connect_cond(cond: exp.Expression, alias: str, own) -> exp.Expression:
    def fix(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Prior):
            return exp.Paren(this=_qualify(n.this, alias, own, prior=True))
        if isinstance(n, exp.Column) and not n.table and n.name.upper() == "LEVEL":
            return exp.Paren(this=_p("cb_level + 1"))
        return n

    return _qualify(cond.transform(fix), alias, own)


def _p(text: str, alias: str = "", bare: bool = False) -> exp.Expression:
    # PostgreSQL text: the (plain) alias is quoted to be read back as itself
    if alias:
        text = text.replace("{a}", quote_ident(alias))
    sql = text if bare else f"{PRIOR}.{text}"
    return _done(as_expression(sqlglot.parse_one(sql, read="postgres")))


def _done(node: exp.Expression) -> exp.Expression:
    """Mark helper nodes so the expression rewrites (e.g. || → CONCAT) leave them alone."""
    for n in node.walk():
        n.meta["ora_done"] = True
    return node


def _outer_order(order, alias: str, extras: _Extras):
    if order is None or order.args.get("siblings"):
        return exp.Order(expressions=[exp.Ordered(this=exp.column("cb_sort", table=alias))])
    return extras.outer(order)


def _aggregates(e: exp.Expression, select: exp.Select) -> bool:
    """Whether a select-list item aggregates this query's rows (not a scalar subquery's, not a
    window function's)."""
    return any(
        agg.find_ancestor(exp.Select) is select and agg.find_ancestor(exp.Window) is None
        for agg in e.find_all(exp.AggFunc)
    )
