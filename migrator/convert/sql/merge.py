"""MERGE → PostgreSQL 15+ MERGE.

sqlglot prints a valid PostgreSQL MERGE (unqualified SET and INSERT targets) but drops Oracle's
``UPDATE SET ... WHERE c`` and ``INSERT ... VALUES ... WHERE c`` filters with only a warning;
they become ``WHEN [NOT] MATCHED AND c``, which is the same filter. Oracle's ``DELETE WHERE``
branch does not parse and is reported by the entry point.
"""

from __future__ import annotations

from sqlglot import exp

from migrator.convert.context import ConversionContext


def merge(tree: exp.Merge, ctx: ConversionContext) -> None:
    if not ctx.enabled("sql.merge"):
        return
    ctx.applied("sql.merge")
    _session_rows_target(tree, ctx)
    whens = tree.args.get("whens")
    for when in whens.expressions if whens else []:
        then = when.args.get("then")
        where = then.args.get("where") if isinstance(then, (exp.Update, exp.Insert)) else None
        if where is None:
            continue
        cond = when.args.get("condition")
        when.set("condition", exp.and_(cond, where.this) if cond is not None else where.this)
        then.set("where", None)


def _session_rows_target(tree: exp.Merge, ctx: ConversionContext) -> None:
    """MERGE INTO a global temporary table: its name is a view of the session's rows (rule
    ddl.session_temporary_table), and PostgreSQL before 17 merges into no view. So the MERGE
    targets the row table under the table's name as alias, and a row matches only when it is
    the session's (and, for ON COMMIT DELETE ROWS, the transaction's): the view's filter, in ON.
    An inserted row takes the session (and transaction) from the row table's defaults."""
    from migrator.convert.ddl.tables import SESSION_COLUMN, XACT_COLUMN, rows_end_with_transaction
    from migrator.convert.sql.nodes import compat

    target = tree.this
    if not isinstance(target, exp.Table) or not ctx.enabled("ddl.session_temporary_table"):
        return
    parts = [p for p in (target.db, target.name) if p]
    entry = ctx.catalog.lookup(*parts) if ctx.catalog is not None and parts else None
    if entry is None or not entry.table.on_commit:
        return
    ctx.applied("ddl.session_temporary_table")
    alias = target.alias_or_name
    target.set("this", exp.to_identifier(target.name + "$gtt"))
    target.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
    mine = [exp.EQ(this=exp.column(SESSION_COLUMN, table=alias, quoted=True), expression=compat("session_key"))]
    if rows_end_with_transaction(entry.table.on_commit):
        current = exp.Anonymous(this="pg_current_xact_id_if_assigned", expressions=[])
        mine.append(exp.EQ(this=exp.column(XACT_COLUMN, table=alias, quoted=True), expression=current))
    on = tree.args.get("on")
    tree.set("on", exp.and_(*mine, *([exp.paren(on)] if on is not None else [])))
