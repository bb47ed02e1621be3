"""Public entry points for converting Oracle SQL (statements and expressions) to PostgreSQL.

Other converters (DDL, PL/SQL) call only these two functions; the construct families behind
them live in their own modules (nulls, text, strings, dates, select, hierarchy, merge, dml;
`names` folds and quotes identifiers). sqlglot (read='oracle', write='postgres') parses once and prints once; our
transforms run on its tree in between:

0. every identifier gets its plain name (Oracle folding, `sql_names.fold_names`);
1. query-level passes, innermost query first: (+) joins, CONNECT BY, ROWNUM, FROM DUAL,
   FOR UPDATE OF, MERGE, UPDATE SET targets;
2. one top-down walk applying expression rules by node class. Top-down matters: a parent sees
   its original children when deciding types (``d + 1`` is date arithmetic because ``d`` is a DATE);
3. every identifier is quoted exactly when PostgreSQL needs it (`sql_names.quote_names`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

# sqlglot imports these two on first use, inside a conversion: imported here, with this module,
# forked conversion workers inherit them instead of each importing them again
import sqlglot.optimizer.annotate_types  # noqa: F401
import sqlglot.optimizer.normalize  # noqa: F401
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import SqlglotError

from migrator.convert.context import ConversionContext, unconverted_marker
from migrator.convert.sql import analytic as analytic
from migrator.convert.sql import attributes as sql_attributes
from migrator.convert.sql import collections as sql_collections
from migrator.convert.sql import dates as dates
from migrator.convert.sql import dml as sql_dml
from migrator.convert.sql import hierarchy as sql_hierarchy
from migrator.convert.sql import implicit as implicit
from migrator.convert.sql import intervals as intervals
from migrator.convert.sql import merge as sql_merge
from migrator.convert.sql import methods as sql_methods
from migrator.convert.sql import names as sql_names
from migrator.convert.sql import nodes as nodes
from migrator.convert.sql import nulls as nulls
from migrator.convert.sql import pivot as sql_pivot
from migrator.convert.sql import prepass as sql_prepass
from migrator.convert.sql import regexp as regexp
from migrator.convert.sql import select as sql_select
from migrator.convert.sql import strings as strings
from migrator.convert.sql import supplied as supplied
from migrator.convert.sql import text as text
from migrator.convert.sql.expression_types import TypeEnv
from migrator.convert.sql.nodes import as_expression, marker

# A rule takes the node class it is listed under (a subclass of Expression), so the table's
# value type cannot name the argument's class: `...` stands for (node, ctx, env).
Rule = Callable[..., "exp.Expression | None"]


def convert_statement(text: str, ctx: ConversionContext, *, types: Mapping[str, str] | None = None) -> str:
    """Convert one Oracle SQL statement (no trailing ';') to PostgreSQL text (no trailing ';')."""
    tree = _parse(text, ctx, "sql statement")
    if tree is None:
        return unconverted_marker("sql statement", text)
    return _print(_convert_tree(tree, ctx, types, pivots="PIVOT" in text.upper()))


def convert_expression(text: str, ctx: ConversionContext, *, types: Mapping[str, str] | None = None) -> str:
    """Convert one Oracle SQL expression to PostgreSQL text."""
    tree = _parse(f"SELECT {text}", ctx, "sql expression")
    if tree is None or not isinstance(tree, exp.Select) or len(tree.expressions) != 1:
        if tree is not None:
            ctx.unconverted("sql expression", f"not a single expression: {text}")
        return unconverted_marker("sql expression", text)
    tree = _convert_tree(tree, ctx, types, pivots="PIVOT" in text.upper())
    return _print(tree.expressions[0] if isinstance(tree, exp.Select) else tree)


def _print(tree: exp.Expression) -> str:
    # The tree is ours and printed once: sqlglot's default defensive deep copy before printing
    # costs as much as all our rules together (quote_and_print never copies).
    return sql_names.quote_and_print(tree)


# One Oracle tokenizer and parser for every text: `sqlglot.parse(text, read="oracle")` looks the
# dialect up and builds both anew for each call (a third of the parse time of a short statement).
# Both reset their state at the start of every call, so reuse gives the same trees.
_ORACLE = Dialect.get_or_raise("oracle")
_TOKENIZER = _ORACLE.tokenizer()
_PARSER = _ORACLE.parser()


# a line of code ending in '-' (not a comment's): SQL*Plus's line continuation character
_CONTINUED = re.compile(r"^(?:(?!--).)*[^-\s]\s*-[ \t]*$", re.M)


def _continuation_hint(text: str) -> str:
    """Why a statement with lines ending in '-' may not parse: SQL*Plus reads such a line as
    continued on the next (SQL*Plus User's Guide, "Continuing a Long SQL*Plus Command on Additional
    Lines"), a reading of the script this converter does not apply to SQL statements."""
    if not _CONTINUED.search(text):
        return ""
    return (
        "; lines end in '-', SQL*Plus's line continuation character, which is not applied to SQL"
        " statements here (join the lines in the source)"
    )


def _parse(text: str, ctx: ConversionContext, construct: str) -> exp.Expression | None:
    text = sql_prepass.rewrite(text)  # forms sqlglot's Oracle dialect cannot parse
    try:
        trees = _PARSER.parse(_TOKENIZER.tokenize(text), text)
    except SqlglotError as exc:
        ctx.unconverted(
            construct,
            f"sqlglot could not parse: {str(exc).splitlines()[0]}{_near(exc, text)}{_continuation_hint(text)}",
        )
        return None
    found = [t for t in trees if t is not None]
    if len(found) != 1:
        ctx.unconverted(construct, f"expected one statement, found {len(found)}")
        return None
    return as_expression(found[0])


def _near(exc: SqlglotError, text: str) -> str:
    """Where the parse stopped, as the text there (the reader of the report finds the construct)."""
    errors = getattr(exc, "errors", None) or []
    first = errors[0] if errors and isinstance(errors[0], dict) else {}
    shown = " ".join(f"{first.get('start_context') or ''}{first.get('highlight') or ''}".split())
    if not shown:
        shown = " ".join(text.split())
    # in double quotes (any inside shown as single ones): reports group messages by their unquoted text
    return ' near "' + shown[-80:].replace('"', "'") + '"' if shown else ""


def _convert_tree(tree: exp.Expression, ctx: ConversionContext, types, *, pivots: bool = True) -> exp.Expression:
    sql_names.fold_names(tree)
    if pivots:  # a walk of every tree for a rare construct: only where the text names it
        tree = sql_pivot.rewrite(tree, ctx)
    env = TypeEnv.build(tree, ctx, types)
    tree = _bad_into(tree, ctx)
    tree = sql_select.outer_joins(tree, ctx)
    tree = _query_passes(tree, ctx, env)
    return _walk(tree, ctx, env)


def _bad_into(tree: exp.Expression, ctx: ConversionContext) -> exp.Expression:
    """INTO targets belong to PL/SQL; sqlglot would print the statement without them."""
    returning = tree.args.get("returning")
    # (sqlglot's Oracle reader sets into=False on a RETURNING without INTO)
    if isinstance(returning, exp.Returning) and isinstance(returning.args.get("into"), exp.Expression):
        return marker(ctx, "RETURNING INTO", tree, "RETURNING ... INTO must be handled by the PL/SQL converter")
    if isinstance(tree, exp.Select) and tree.args.get("into") is not None:
        return marker(ctx, "SELECT INTO", tree, "SELECT ... INTO must be handled by the PL/SQL converter")
    return tree


def _query_passes(tree: exp.Expression, ctx: ConversionContext, env: TypeEnv) -> exp.Expression:
    # Innermost first, so an outer query sees already-rewritten subqueries.
    for select in reversed(list(tree.find_all(exp.Select))):
        sql_select.rownum(select, ctx)
        sql_select.drop_dual(select, ctx)
        sql_select.dictionary_owner(select, ctx)
        sql_dml.lock_targets(select, ctx, env)
        if select.args.get("connect") is not None:
            new = sql_hierarchy.connect_by(select, ctx, env)
            if select is tree:
                tree = new
            else:
                select.replace(new)
    for select in tree.find_all(exp.Select):  # after CONNECT BY: its rewrite is a view in FROM too
        sql_select.derived_aliases(select, ctx)
    if isinstance(tree, exp.Merge):
        sql_merge.merge(tree, ctx)
    if isinstance(tree, (exp.Update, exp.Merge)):
        sql_dml.set_targets(tree, ctx)
    return tree


def _walk(root: exp.Expression, ctx: ConversionContext, env: TypeEnv) -> exp.Expression:
    """Apply expression rules top-down; each replacement's children are visited afterwards."""
    stack: list[exp.Expression] = [root]
    new_root = root
    while stack:
        node = stack.pop()
        # Where the node hangs, taken before a rule may re-parent it inside its replacement.
        parent, key, index = node.parent, node.arg_key, node.index
        new = node if node.meta.get("ora_done") else _apply(node, ctx, env)
        if new is not node:
            if node is new_root:
                new_root = new
            else:
                assert parent is not None and key is not None  # the walk reached it from its parent
                parent.set(key, new, index)
        stack.extend(new.iter_expressions())
    return new_root


def _apply(node: exp.Expression, ctx: ConversionContext, env: TypeEnv) -> exp.Expression:
    for rule in _RULES.get(type(node), ()):
        out = rule(node, ctx, env)
        if out is not None:
            return out
    return node


def _placeholder(node: exp.Placeholder, ctx: ConversionContext, env) -> exp.Expression:
    # sqlglot would print a bind variable as %(name)s, which is not SQL.
    return marker(ctx, "bind variable", node, f"bind variable :{node.name} outside PL/SQL")


def _anonymous(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    return (
        implicit.routine_call(node, ctx, env)
        or dates.unsupported_date_fn(node, ctx, env)
        or dates.interval_function(node, ctx, env)
        or strings.remainder(node, ctx, env)
        or dates.trunc_date(node, ctx, env)
        or strings.raw_hex(node, ctx, env)
        or strings.lob_conversion(node, ctx, env)
        or strings.translate_using(node, ctx, env)
        or strings.member_of(node, ctx, env)
        or sql_collections.cardinality(node, ctx, env)
        or supplied.sys_context(node, ctx, env)
        or supplied.bfilename(node, ctx, env)
        or supplied.xml_function(node, ctx, env)
        or sql_collections.type_constructor(node, ctx, env)
        or sql_collections.object_reference(node, ctx, env)
    )


_RULES: dict[type[exp.Expression], tuple[Rule, ...]] = {
    exp.Coalesce: (nulls.nvl,),
    exp.Nvl2: (nulls.nvl2,),
    exp.DecodeCase: (nulls.decode,),
    exp.Literal: (nulls.empty_string,),
    exp.DPipe: (nulls.concat,),
    exp.Concat: (nulls.concat,),
    exp.CurrentTimestamp: (dates.sysdate,),
    exp.Systimestamp: (dates.systimestamp,),
    exp.Add: (implicit.arithmetic, intervals.arith, dates.date_arith),
    exp.Sub: (implicit.arithmetic, intervals.arith, dates.date_arith),
    exp.Mul: (implicit.arithmetic,),
    exp.Mod: (implicit.arithmetic,),
    exp.Abs: (implicit.arithmetic,),
    exp.Sign: (implicit.arithmetic,),
    exp.Ceil: (implicit.arithmetic,),
    exp.Floor: (implicit.arithmetic,),
    exp.Sqrt: (implicit.arithmetic,),
    exp.Ln: (implicit.arithmetic,),
    exp.Exp: (implicit.arithmetic,),
    exp.Pow: (implicit.arithmetic,),
    exp.Extract: (intervals.extract,),
    exp.DateTrunc: (dates.trunc_date,),
    exp.Anonymous: (_anonymous,),
    exp.Round: (dates.round_date,),
    exp.AddMonths: (dates.add_months,),
    exp.MonthsBetween: (dates.months_between,),
    exp.LastDay: (dates.last_day,),
    exp.StrToDate: (dates.to_date,),
    exp.StrToTime: (dates.to_date,),
    exp.ToChar: (text.to_char_default, text.to_char_nls, dates.to_char),
    exp.TimeToStr: (dates.to_char,),
    exp.NextDay: (dates.next_day,),
    exp.DateStrToDate: (dates.date_literal,),
    exp.Cast: (sql_collections.cast_multiset, dates.date_cast),
    exp.Is: (sql_collections.is_empty,),
    exp.StrPosition: (strings.instr,),
    exp.Substring: (strings.substr,),
    exp.Pad: (strings.pad,),
    exp.Greatest: (strings.greatest_least,),
    exp.Least: (strings.greatest_least,),
    exp.GroupConcat: (strings.listagg,),
    exp.ToNumber: (strings.to_number_format, text.to_number_nls, strings.to_number),
    exp.Replace: (text.replace,),
    exp.Length: (text.length,),
    exp.Trim: (text.empty_result,),
    exp.Translate: (text.empty_result,),
    exp.RegexpReplace: (regexp.regexp, text.empty_result),
    exp.RegexpLike: (regexp.regexp,),
    exp.RegexpSubstr: (regexp.regexp,),
    exp.RegexpInstr: (regexp.regexp,),
    exp.RegexpCount: (regexp.regexp,),
    exp.Div: (implicit.arithmetic, strings.division),
    exp.Column: (sql_select.sequence_ref, sql_select.session_user, supplied.reference, sql_attributes.object_attribute),
    exp.JSONTable: (strings.json_binary,),
    exp.Dot: (
        supplied.xml_constructor,
        sql_collections.qualified_type_constructor,
        sql_methods.method_call,
        supplied.call,
        supplied.xml_value_method,
        nodes.call_field,
        implicit.result_method,
    ),
    exp.Ordered: (sql_methods.map_order_by,),
    exp.Rand: (supplied.rand,),
    exp.Placeholder: (_placeholder,),
    exp.Window: (analytic.keep, analytic.ratio_to_report),
    exp.GroupingId: (analytic.grouping_id,),
    exp.Table: (sql_collections.table_function,),
    exp.Insert: (implicit.insert_values,),
    # both rewrite operands in place: CHAR against VARCHAR2 unpadded, text against NUMBER/DATE converted
    exp.EQ: (sql_methods.map_compare, text.char_compare, implicit.compare),
    exp.NEQ: (sql_methods.map_compare, text.char_compare, implicit.compare),
    exp.GT: (sql_methods.map_compare, text.char_compare, implicit.compare),
    exp.GTE: (sql_methods.map_compare, text.char_compare, implicit.compare),
    exp.LT: (sql_methods.map_compare, text.char_compare, implicit.compare),
    exp.LTE: (sql_methods.map_compare, text.char_compare, implicit.compare),
}
