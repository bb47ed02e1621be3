"""DML and locking details PostgreSQL spells differently: SET targets and FOR UPDATE OF.

* Oracle accepts ``UPDATE t a SET a.col = ...`` (and ``t.col``); PostgreSQL reads a qualified
  SET target as a field of a composite column and fails (42703). The target is always a column of
  the updated table, so the qualifier carries no meaning and is dropped (also in MERGE's UPDATE).
* Oracle's ``FOR UPDATE OF a.col`` names columns and locks the rows of their tables; PostgreSQL's
  ``FOR UPDATE OF a`` names the tables (by alias) directly.
"""

from __future__ import annotations

from sqlglot import exp

from migrator.convert.context import ConversionContext
from migrator.convert.sql.expression_types import TypeEnv
from migrator.convert.sql.nodes import marker


def set_targets(tree: exp.Expression, ctx: ConversionContext) -> None:
    """Unqualify the left side of every SET assignment in UPDATE statements and MERGE updates."""
    for update in tree.find_all(exp.Update):
        for assign in update.expressions:
            target = assign.this if isinstance(assign, exp.EQ) else None
            if isinstance(target, exp.Column) and target.table and ctx.enabled("sql.update_set_target"):
                ctx.applied("sql.update_set_target")
                target.set("table", None)
                target.set("db", None)


def lock_targets(select: exp.Select, ctx: ConversionContext, env: TypeEnv) -> None:
    """``FOR UPDATE OF [alias.]col, ...`` → ``FOR UPDATE OF alias, ...`` (each table once)."""
    for lock in select.args.get("locks") or []:
        if not lock.expressions or not ctx.enabled("sql.for_update_of"):
            continue
        tables: list[str] = []
        for col in lock.expressions:
            owner = _owner(select, col, env)
            if owner is None:
                lock.replace(
                    marker(ctx, "FOR UPDATE OF", lock, f"cannot tell which table owns {col.sql(dialect='oracle')}")
                )
                break
            if owner.lower() not in (t.lower() for t in tables):
                tables.append(owner)
        else:
            ctx.applied("sql.for_update_of")
            # built from the identifier, not parsed from text: an alias may hold any character
            lock.set("expressions", [exp.Table(this=exp.to_identifier(t)) for t in tables])


def _owner(select: exp.Select, col: exp.Expression, env: TypeEnv) -> str | None:
    """Alias (or name) of the FROM item that owns the locked column."""
    sources = [t.alias_or_name for t in _from_tables(select)]
    if isinstance(col, exp.Table) and col.db:  # sqlglot reads ``a.col`` as table ``col`` in schema ``a``
        return col.db
    name = col.name.lower()
    if len(sources) == 1:
        return sources[0]
    owners = [s for s in sources if name in env.aliases.get(s.lower(), {})]
    return owners[0] if len(owners) == 1 else None


def _from_tables(select: exp.Select) -> list[exp.Table]:
    items = [select.args["from_"].this] if select.args.get("from_") else []
    items += [j.this for j in select.args.get("joins") or []]
    return [t for t in items if isinstance(t, exp.Table)]
