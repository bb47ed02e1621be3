"""Oracle's implicit conversions where PostgreSQL has none: the arguments of calls to converted
routines (rule plsql.call_conversion), and strings compared with or written into numbers and
dates (rule expr.implicit_from_text).

Calls. A call to a routine of the export (`f(x)`, `pkg.f(x)`, a lifted nested subprogram) is
bound to the signature Oracle would choose (`migrator.convert.signatures`); each argument that
PostgreSQL would not pass to its parameter is converted as Oracle converts it: a number or a
string reaching a numeric parameter is cast to the parameter's type (a `NUMBER` into an `integer`
parameter anchored on a `NUMBER(9)` column; `TO_NUMBER` of a string), a string reaching a DATE is
cast like `TO_DATE` without a format, a number or date reaching a string parameter is printed as
Oracle prints it (`expr.implicit_to_text`). A call Oracle itself would refuse (no signature fits,
or several fit equally) is reported on the caller instead of failing when its line runs.

Strings into numbers and dates. Oracle compares a string with a number as numbers and with a
date as dates (the string side is converted), and converts a string written into a NUMBER or
DATE column. PostgreSQL has no `bigint = varchar` operator and no assignment cast from varchar to
bigint, so such a comparison or INSERT/UPDATE (a VARCHAR2 variable, parameter or dynamic-SQL bind
against a NUMBER column) fails at run time — where a WHEN OTHERS handler hides it. The string
gets the cast Oracle applies. String literals are left alone: PostgreSQL reads an untyped literal
as the other side's type itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from sqlglot import exp
from sqlglot.errors import SqlglotError

from migrator.convert import signatures as sigs
from migrator.convert import type_hierarchy as hier
from migrator.convert.context import ConversionContext
from migrator.convert.datatypes import map_type
from migrator.convert.signatures import Arg, ParamSig, RoutineSig
from migrator.convert.sql import names as sql_names
from migrator.convert.sql import oracle_parse
from migrator.convert.sql.expression_types import DATE, NUMBER, STRING, TIMESTAMP, TypeEnv, classify
from migrator.convert.sql.nodes import marker, tag
from migrator.convert.sql.text import as_text
from migrator.oracle_types import is_clob

# The Oracle type given to a dynamic-SQL bind whose value's type the converter does not know:
# classified as unknown by every rule, but compared with a NUMBER column it is cast to a number
# (the cast is the identity for a number, and Oracle's conversion for a string).
UNKNOWN_BIND = "UNKNOWN BIND"


# ---- what an argument is ------------------------------------------------------------------------
def _column_ora(env: TypeEnv, col: exp.Column) -> str | None:
    name, qual = col.name.lower(), col.table.lower()
    if qual:
        cols = env.aliases.get(qual)
        if cols is not None and name in cols:
            return cols[name]
        return env.variables.get(f"{qual}.{name}")
    for cols in env.aliases.values():
        if name in cols:
            return cols[name]
    return env.variables.get(name)


def _literal_pg(node: exp.Literal) -> str:
    if node.is_string:
        return "unknown"
    text = str(node.this)
    if text.isdigit():
        return "integer" if int(text) < 2**31 else ("bigint" if int(text) < 2**63 else "numeric")
    return "numeric"


def _call_parts(node: exp.Anonymous) -> tuple[str, ...] | None:
    """The plain name parts of a call (`pkg.f(...)` is a Dot over the call)."""
    name = node.this
    if isinstance(name, exp.Identifier):
        name = name.this
    if not isinstance(name, str):
        return None
    parts = [name if getattr(node.this, "quoted", False) else name.lower()]
    parent = node.parent
    if isinstance(parent, exp.Dot) and parent.expression is node:
        left: exp.Expression | None = parent.this
        while isinstance(left, exp.Dot):
            if not isinstance(left.expression, exp.Identifier):
                return None
            parts.insert(0, left.expression.this)
            left = left.this
        if not isinstance(left, exp.Identifier):
            return None
        parts.insert(0, left.this)
    return tuple(parts)


def called(node: exp.Expression, ctx: ConversionContext) -> list[RoutineSig] | None:
    """The signatures of the export's routine that `node` calls, if it calls one."""
    if isinstance(node, exp.Dot) and isinstance(node.expression, exp.Anonymous):
        node = node.expression
    if not isinstance(node, exp.Anonymous):
        return None
    parts = _call_parts(node)
    if parts is None:
        return None
    return ctx.local_routines.get(parts) or sigs.lookup(ctx.catalog, parts)


def argument(node: exp.Expression, ctx: ConversionContext, env: TypeEnv, name: str | None = None) -> Arg:
    """What is known of an argument's type: its Oracle kind and, where known, PostgreSQL type."""
    while isinstance(node, exp.Paren):
        node = node.this
    kind, pg, ora = env.kind(node), None, None
    if isinstance(node, exp.Literal):
        pg = _literal_pg(node)
    elif isinstance(node, exp.Null):
        pg = "unknown"
    elif isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal):
        pg = _literal_pg(node.this)
    elif isinstance(node, exp.Column):
        ora = _column_ora(env, node)
        placeholder = node.name.lower().startswith("plx__")  # converted text: its own PostgreSQL type
        pg = map_type(ora) if ora and classify(ora) and not placeholder else None
    elif isinstance(node, exp.Cast):
        pg = node.to.sql(dialect="postgres")
    elif (found := called(node, ctx)) and len({s.returns_pg for s in found}) == 1:
        kind, pg = kind or classify(found[0].returns_ora), found[0].returns_pg or None
        ora = found[0].returns_ora
    if pg is None and kind in _KIND_TYPES:
        pg = _KIND_TYPES[kind]
    return Arg(name, kind, pg, is_clob(ora))


# What a value of a coarse Oracle kind is in PostgreSQL whatever its exact type (an Oracle DATE is
# timestamp(0) here; all string types pass to one another); numbers and timestamps vary.
_KIND_TYPES = {STRING: "text", DATE: "timestamp"}


# ---- calls ------------------------------------------------------------------------------------------
def _type(pg: str) -> exp.DataType:
    base = sigs.base_type(pg)
    if sigs.family(pg) is None:  # a domain (a package SUBTYPE): cast to it by name
        return exp.DataType.build(pg, dialect="postgres", udt=True)
    # a copy of one tree built per spelling: building parses the spelling (~30 us), a copy is ~3 us
    return _built_type(pg if sigs.family(pg) == TIMESTAMP else base).copy()


@lru_cache(maxsize=256)
def _built_type(spelling: str) -> exp.DataType:
    """The PostgreSQL type `spelling` as sqlglot builds it; never handed out itself (callers copy)."""
    return exp.DataType.build(spelling, dialect="postgres")


def convert_node(node: exp.Expression, how: str, param: ParamSig, ctx: ConversionContext, env) -> exp.Expression:
    """`node` converted for `param` (`how` from signatures.conversion)."""
    if how == "text":
        return as_text(node, ctx, env)
    out = exp.Cast(this=node, to=_type(param.pg))
    out.meta["ora_done"] = True  # a cast of ours: the walk converts its operand, not the cast
    return tag(out, param.kind)


def routine_call(node: exp.Anonymous, ctx: ConversionContext, env: TypeEnv) -> exp.Expression | None:
    """Arguments of a call to a converted routine converted to the parameters Oracle binds them to."""
    found = called(node, ctx)
    if not found or not ctx.enabled("plsql.call_conversion") or node.meta.get("ora_call"):
        return None
    node.meta["ora_call"] = True
    values = [a.expression if isinstance(a, exp.Kwarg) else a for a in node.expressions]
    args = [
        argument(v, ctx, env, a.this.name.lower() if isinstance(a, exp.Kwarg) else None)
        for a, v in zip(node.expressions, values)
    ]
    chosen = sigs.choose(found, args, "FUNCTION")
    if isinstance(chosen, str):
        return marker(ctx, "call of a converted routine", node, f"{'.'.join(_call_parts(node) or ())}: {chosen}")
    if chosen is None:
        ctx.note(f"call of {node.sql(dialect='oracle')}: overload left to PostgreSQL (argument types unknown)")
        return None
    if chosen.sig.kind == "FUNCTION" and any(p.mode != "IN" for p in chosen.sig.params):
        name = ".".join(_call_parts(node) or ())
        reason = f"{name} has OUT parameters: Oracle refuses it in SQL (ORA-06572)"
        return marker(ctx, "function with OUT parameters in SQL", node, reason)
    out, changed = list(node.expressions), False
    for k, (a, param) in enumerate(zip(args, chosen.params)):
        how = sigs.conversion(a, param)
        if how is None and sigs.pins_overload(a, param, len(found) > 1):
            how = "cast"  # PostgreSQL must pick the overload Oracle picked
        if how is None or param.mode != "IN":
            continue
        new = convert_node(values[k], how, param, ctx, env)
        if isinstance(out[k], exp.Kwarg):
            out[k] = exp.Kwarg(this=out[k].this, expression=new)
        else:
            out[k] = new
        changed = True
    if changed:
        node.set("expressions", out)
        ctx.applied("plsql.call_conversion")
    return None


# ---- comparisons -------------------------------------------------------------------------------------
_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)


def _bind_unknown(node: exp.Expression, env: TypeEnv) -> bool:
    return isinstance(node, exp.Column) and not node.table and env.variables.get(node.name.lower()) == UNKNOWN_BIND


def _string_side(node: exp.Expression, other_kind: str | None, env: TypeEnv) -> str | None:
    """The type `node` must be cast to for a comparison with an operand of `other_kind`."""
    if isinstance(node, (exp.Literal, exp.Null)):
        return None
    kind = env.kind(node)
    if other_kind == NUMBER and (kind == STRING or _bind_unknown(node, env)):
        return "NUMERIC"
    if other_kind in (DATE, TIMESTAMP) and kind == STRING:
        return "TIMESTAMP(0)" if other_kind == DATE else "TIMESTAMP"
    return None


def _convert_side(node: exp.Expression, side: str, other_kind: str | None, ctx: ConversionContext, env) -> None:
    operand = node.args[side]
    to = _string_side(operand, other_kind, env)
    if to is not None:
        cast = exp.Cast(this=operand, to=exp.DataType.build(to, dialect="postgres"))
        cast.meta["ora_done"] = True
        node.set(side, tag(cast, other_kind))
        ctx.applied("expr.implicit_from_text")


def compare(node: exp.Expression, ctx: ConversionContext, env: TypeEnv) -> exp.Expression | None:
    """A string compared with a number or a date is converted to the other side's type; in an
    UPDATE's SET, a string written into a NUMBER or DATE column is converted to it."""
    if not isinstance(node, _COMPARISONS) or not ctx.enabled("expr.implicit_from_text"):
        return None
    if isinstance(node.parent, exp.Update) and node.arg_key == "expressions":
        _convert_side(node, "expression", env.kind(node.this), ctx, env)  # the target stays as it is
        return None
    left, right = node.this, node.expression
    _convert_side(node, "this", env.kind(right), ctx, env)
    _convert_side(node, "expression", env.kind(left), ctx, env)
    return None


_ARITHMETIC = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod)
# numeric functions whose argument(s) Oracle converts from a string (ABS('-3') is 3)
_NUMERIC_FUNCTIONS = (exp.Abs, exp.Sign, exp.Ceil, exp.Floor, exp.Sqrt, exp.Ln, exp.Exp, exp.Pow)


def arithmetic(node: exp.Expression, ctx: ConversionContext, env: TypeEnv) -> exp.Expression | None:
    """A string operand of arithmetic with a number (a VARCHAR2 variable or dynamic-SQL bind plus a
    column), or the argument of a numeric function, is converted to a number, as Oracle converts
    it; PostgreSQL has no varchar + numeric. Changes the node in place (the rules after it still
    apply)."""
    if not ctx.enabled("expr.implicit_from_text"):
        return None
    if isinstance(node, _ARITHMETIC):
        left, right = env.kind(node.this), env.kind(node.expression)
        if NUMBER in (left, right):
            _convert_side(node, "this", NUMBER, ctx, env)
            _convert_side(node, "expression", NUMBER, ctx, env)
    elif isinstance(node, _NUMERIC_FUNCTIONS):
        for key in ("this", "expression"):
            if isinstance(node.args.get(key), exp.Expression):
                _convert_side(node, key, NUMBER, ctx, env)
    return None


def insert_values(node: exp.Insert, ctx: ConversionContext, env: TypeEnv) -> exp.Expression | None:
    """INSERT ... VALUES: a string written into a NUMBER or DATE column is converted to it."""
    if not ctx.enabled("expr.implicit_from_text"):
        return None
    target, names = node.this, []
    if isinstance(target, (exp.Schema, exp.Tuple)):
        names = [c.name.lower() for c in target.expressions]
        target = target.this if isinstance(target, exp.Schema) else None
    merge = node.parent.parent if isinstance(node.parent, exp.When) and node.parent.parent else None
    if target is None and isinstance(merge, exp.Whens) and isinstance(merge.parent, exp.Merge):
        target = merge.parent.this  # MERGE ... WHEN NOT MATCHED THEN INSERT: the merge's target
    cols = env.aliases.get(target.name.lower()) if isinstance(target, exp.Table) else None
    if cols is None:
        return None
    names = names or list(cols)
    values = node.expression
    rows = values.expressions if isinstance(values, exp.Values) else [values] if isinstance(values, exp.Tuple) else []
    for row in rows:
        out = list(row.expressions)
        for k, value in enumerate(out[: len(names)]):
            kind = classify(cols.get(names[k]))
            to = _string_side(value, kind, env)
            if to is not None:
                cast = exp.Cast(this=value, to=exp.DataType.build(to, dialect="postgres"))
                cast.meta["ora_done"] = True
                out[k] = tag(cast, kind)
                ctx.applied("expr.implicit_from_text")
        row.set("expressions", out)
    return None


# ---- CALL statements (PL/SQL) -------------------------------------------------------------------
def text_argument(oracle_text: str, ctx: ConversionContext, types: Mapping[str, str], name: str | None) -> Arg:
    """What is known of the type of an argument given as Oracle text (PL/SQL placeholders typed
    by `types`), for arguments the PL/SQL converter binds itself (CALL statements)."""
    ora = next((v for k, v in types.items() if k.lower() == oracle_text.lower()), None)
    if ora is not None and _NAME.fullmatch(oracle_text):  # a variable: its declared type says it all
        kind = classify(ora)
        # a placeholder stands for converted text whose PostgreSQL type is its own (SQLERRM
        # outside a handler is a literal): only its Oracle type is known
        pg = map_type(ora) if kind and not oracle_text.lower().startswith("plx__") else None
        return Arg(name, kind, pg, is_clob(ora))
    if _NUMBER.fullmatch(oracle_text):
        return Arg(name, NUMBER, _literal_pg(exp.Literal(this=oracle_text, is_string=False)))
    if _STRING.fullmatch(oracle_text) and oracle_text != "''":
        return Arg(name, STRING, "unknown")
    if oracle_text.upper() == "NULL":
        return Arg(name, None, "unknown")
    rel = tuple(sorted((k, v) for k, v in types.items() if k.lower() in oracle_text.lower()))
    key = ("argument", oracle_text, rel)
    memo = ctx.memo
    if memo is not None and key in memo:
        kind, pg, lob = memo[key]
        return Arg(name, kind, pg, lob)
    try:
        tree = oracle_parse.parse_one(f"SELECT {oracle_text}")
    except SqlglotError:
        return Arg(name)
    if not isinstance(tree, exp.Select) or len(tree.expressions) != 1:
        return Arg(name)
    sql_names.fold_names(tree)
    found = argument(tree.expressions[0], ctx, TypeEnv.build(tree, ctx, dict(rel)))
    if memo is not None:
        memo[key] = (found.kind, found.pg, found.lob)
    return Arg(name, found.kind, found.pg, found.lob)


_NAME = re.compile(r"[A-Za-z_][\w$#]*")
_NUMBER = re.compile(r"\d+(\.\d*)?")
_STRING = re.compile(r"'(?:[^']|'')*'")
_PLACEHOLDER = "plx__argument"


def convert_text(pg_text: str, how: str, param: ParamSig, ctx: ConversionContext, kind: str | None) -> str:
    """Converted PostgreSQL text of an argument, converted again for `param` as `convert_node`."""
    env = TypeEnv(ctx)
    node = tag(exp.column(_PLACEHOLDER), kind)
    out = convert_node(node, how, param, ctx, env)
    operand = pg_text if _SIMPLE.fullmatch(pg_text) else f"({pg_text})"
    return sql_names.to_postgres(out).replace(_PLACEHOLDER, operand)


_SIMPLE = re.compile(r'[\w$]+|"(?:[^"]|"")+"')  # a variable or a number: no parentheses needed


def result_method(node: exp.Dot, ctx: ConversionContext, env: TypeEnv) -> exp.Expression | None:
    """``f(args).m(margs)`` / ``pkg.f(args).m(margs)``: a member method of the object type the
    converted function returns is the function ``<type>__m(self, margs)`` (as ``v.m()`` on a
    variable is), called on the result."""
    if not isinstance(node.expression, exp.Anonymous) or not isinstance(node.expression.this, str):
        return None
    call = node.this
    if not (
        isinstance(call, exp.Anonymous) or (isinstance(call, exp.Dot) and isinstance(call.expression, exp.Anonymous))
    ):
        return None
    found = called(call, ctx)
    # an object type's Oracle spelling is not kept in the signature: its PostgreSQL name is
    returns = {(s.returns_ora or s.returns_pg).lower() for s in found or () if s.kind == "FUNCTION"}
    if len(returns) != 1:
        return None
    entry = ctx.catalog.lookup(*[p.strip('"') for p in next(iter(returns)).split(".")][-2:])
    if entry is None or entry.plsql_type is None:
        return None
    key = (entry.schema, entry.name)
    methods = hier.methods(ctx.catalog, key) if hier.in_hierarchy(ctx.catalog, key) else entry.methods
    name = node.expression.this.lower()
    if not any(r.flavour in ("MEMBER", "MAP", "ORDER") for r in methods.get(name, [])):
        return None
    fn = exp.Anonymous(this=f"{entry.name}__{name}", expressions=[exp.Paren(this=call), *node.expression.expressions])
    return exp.Dot(this=exp.to_identifier(entry.schema), expression=fn)
