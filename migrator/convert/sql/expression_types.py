"""Oracle type of an expression, as far as the rewrites need it: is this operand a DATE?

Date arithmetic (``d + 1``), TRUNC/ROUND and friends mean different things on dates and numbers,
and sqlglot does not know which. The answer comes from the expression itself (SYSDATE, TO_DATE,
date functions, DATE casts), from catalog column types of the tables in the statement, and from
the PL/SQL variables in scope. Unknown stays ``None``: callers keep numeric semantics then.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import exp

from migrator.convert.context import ConversionContext
from migrator.oracle_types import CHAR_TYPE, NUMBER_NAMES, TEXT_NAMES

DATE, TIMESTAMP, NUMBER, STRING, INTERVAL = "date", "timestamp", "number", "string", "interval"


def classify(oracle_type: str | None) -> str | None:
    """Oracle type spelling → one of the coarse kinds above."""
    if not oracle_type:
        return None
    base = oracle_type.strip().upper().split("(", 1)[0].strip()
    if base == "DATE":
        return DATE
    if base.startswith("TIMESTAMP"):
        return TIMESTAMP
    if base.startswith("INTERVAL"):
        return INTERVAL
    if base in NUMBER_NAMES:
        return NUMBER
    if base in TEXT_NAMES:
        return STRING
    return None


# PL/SQL's own functions written without parentheses (a variable of the name shadows them).
_PLSQL_NAMES = {"sqlerrm": STRING, "sqlcode": NUMBER}

# Functions whose Oracle result is a DATE whatever their arguments.
_DATE_FUNCS = (exp.AddMonths, exp.LastDay, exp.StrToDate, exp.DateStrToDate, exp.NextDay)
_DATE_ANON = frozenset({"NEXT_DAY", "ADD_MONTHS", "LAST_DAY", "TO_DATE", "NEW_TIME"})
_INTERVAL_ANON = frozenset({"NUMTODSINTERVAL", "NUMTOYMINTERVAL", "TO_DSINTERVAL", "TO_YMINTERVAL"})
# Functions whose Oracle result is text (their result needs no implicit conversion in ||).
_STRING_FUNCS = (
    exp.DPipe,
    exp.Concat,
    exp.Upper,
    exp.Lower,
    exp.Substring,
    exp.ToChar,
    exp.TimeToStr,
    exp.Trim,
    exp.Replace,
    exp.Translate,
    exp.RegexpReplace,
    exp.Pad,
    exp.Initcap,
    exp.Chr,
    exp.GroupConcat,
    exp.RegexpExtract,
)
# Functions whose Oracle result is a NUMBER whatever their arguments.
_NUMBER_FUNCS = (
    exp.Mul, exp.Div, exp.Mod, exp.Length, exp.StrPosition, exp.Count, exp.Extract, exp.Trunc, exp.Abs, exp.Sign,
    exp.Ceil, exp.Floor, exp.Sqrt, exp.Pow, exp.Ln, exp.Log, exp.Exp, exp.Sum, exp.Avg, exp.ToNumber,
)  # fmt: skip
_NUMBER_ANON = frozenset({"MOD", "REMAINDER", "BITAND", "MONTHS_BETWEEN", "INSTR", "LENGTH", "TO_NUMBER", "SIGN"})
_STRING_ANON = frozenset(
    {
        *("SYS_CONNECT_BY_PATH", "RAWTOHEX", "TO_CLOB", "REGEXP_SUBSTR", "DBMS_RANDOM.STRING"),
        # VARCHAR2 whatever the parameter asked for (a session id comes back as text and is
        # converted where a NUMBER parameter takes it)
        *("SYS_CONTEXT", "USERENV"),
    }
)


@dataclass
class TypeEnv:
    """Lookup tables for one statement: table aliases → catalog columns, and PL/SQL variables."""

    ctx: ConversionContext
    variables: dict[str, str] = field(default_factory=dict)  # name(lower) -> Oracle type
    aliases: dict[str, dict[str, str]] = field(default_factory=dict)  # alias -> {col: type}

    @classmethod
    def build(cls, tree: exp.Expression, ctx: ConversionContext, types: dict | None) -> TypeEnv:
        env = cls(ctx, {k.lower(): v for k, v in (types or {}).items()})
        for table in tree.find_all(exp.Table):
            cols = _catalog_columns(ctx, table)
            if cols is not None:
                env.aliases.setdefault(table.alias_or_name.lower(), cols)
                env.aliases.setdefault(table.name.lower(), cols)
        return env

    def column_kind(self, col: exp.Column) -> str | None:
        name = col.name.lower()
        qual = col.table.lower()
        if qual:
            cols = self.aliases.get(qual)
            if cols is not None and name in cols:
                return classify(cols[name])
            # PL/SQL record fields and package variables arrive as qualified names.
            return classify(self.variables.get(f"{qual}.{name}"))
        for cols in self.aliases.values():
            if name in cols:
                return classify(cols[name])
        if name in self.variables:
            return classify(self.variables[name])
        return _PLSQL_NAMES.get(name)

    def oracle_type(self, node: exp.Expression | None) -> str | None:
        """The Oracle type spelling of a column, variable or CAST, where known."""
        if isinstance(node, exp.Paren):
            return self.oracle_type(node.this)
        if isinstance(node, exp.Cast):
            return node.to.sql(dialect="oracle")
        if not isinstance(node, exp.Column):
            return None
        name, qual = node.name.lower(), node.table.lower()
        if qual:
            cols = self.aliases.get(qual)
            if cols is not None and name in cols:
                return cols[name]
            return self.variables.get(f"{qual}.{name}")
        for cols in self.aliases.values():
            if name in cols:
                return cols[name]
        return self.variables.get(name)

    def is_char(self, node: exp.Expression | None) -> bool:
        """A blank-padded CHAR/NCHAR value (Oracle keeps its blanks; PostgreSQL's cast to text drops
        them)."""
        spelling = (self.oracle_type(node) or "").strip().upper()
        return CHAR_TYPE.match(spelling) is not None

    def kind(self, node: exp.Expression | None) -> str | None:
        """Coarse Oracle type of ``node`` or None when unknown."""
        if node is None:
            return None
        meta = node.meta.get("ora_kind") if node._meta else None
        if meta:
            return meta
        return _kind(self, node)


def _catalog_columns(ctx: ConversionContext, table: exp.Table) -> dict[str, str] | None:
    parts = (table.db, table.name) if table.db else (table.name,)
    entry = ctx.catalog.lookup(*parts) if ctx.catalog and table.name else None
    cols = entry.table.column_types if entry else None
    if isinstance(cols, dict):
        return {str(k).lower(): str(v) for k, v in cols.items()}
    return None


def _kind(env: TypeEnv, node: exp.Expression) -> str | None:
    if isinstance(node, (exp.Paren, exp.Alias)):
        return env.kind(node.this)
    if isinstance(node, exp.Column):
        return env.column_kind(node)
    if isinstance(node, exp.CurrentTimestamp):
        return DATE if node.args.get("sysdate") else TIMESTAMP
    if isinstance(node, (exp.Systimestamp, exp.StrToTime, exp.CurrentTimestampLTZ)):
        return TIMESTAMP
    if isinstance(node, _DATE_FUNCS) or (isinstance(node, exp.Anonymous) and node.name.upper() in _DATE_ANON):
        return DATE
    if isinstance(node, exp.Interval) or (isinstance(node, exp.Anonymous) and node.name.upper() in _INTERVAL_ANON):
        return INTERVAL
    if isinstance(node, exp.Cast):
        return _cast_kind(node)
    if isinstance(node, exp.Literal):
        return STRING if node.is_string else NUMBER
    if isinstance(node, (exp.DateTrunc, exp.TimestampTrunc)):
        return DATE
    if isinstance(node, (exp.Round, exp.Anonymous)) and node.name.upper() in ("ROUND", "TRUNC"):
        return _round_kind(env, node)
    if isinstance(node, (exp.Add, exp.Sub)):
        return _arith_kind(env, node)
    if isinstance(node, (exp.Mul, exp.Div)) and INTERVAL in (env.kind(node.this), env.kind(node.expression)):
        return INTERVAL  # NUMBER * INTERVAL, INTERVAL * NUMBER, INTERVAL / NUMBER
    if isinstance(node, _NUMBER_FUNCS) or (isinstance(node, exp.Anonymous) and node.name.upper() in _NUMBER_ANON):
        return NUMBER
    if isinstance(node, _STRING_FUNCS) or (isinstance(node, exp.Anonymous) and node.name.upper() in _STRING_ANON):
        return STRING
    if isinstance(node, (exp.Coalesce, exp.Nullif, exp.Greatest, exp.Least, exp.Max, exp.Min)):
        return _first_known(env, [node.this, *node.expressions])
    if isinstance(node, exp.Case):
        return _first_known(env, [i.args.get("true") for i in node.args.get("ifs", [])] + [node.args.get("default")])
    return None


def _cast_kind(node: exp.Cast) -> str | None:
    to = node.to
    if to.this in (exp.DataType.Type.DATE, exp.DataType.Type.DATETIME):
        return DATE
    if to.is_type(*exp.DataType.TEMPORAL_TYPES):
        return TIMESTAMP
    if to.is_type(*exp.DataType.NUMERIC_TYPES):
        return NUMBER
    if to.is_type(*exp.DataType.TEXT_TYPES):
        return STRING
    return None


def _round_kind(env: TypeEnv, node: exp.Expression) -> str | None:
    # Anonymous TRUNC keeps its name in ``this`` (a str); its operand is the first argument.
    if isinstance(node, exp.Anonymous):
        inner = node.expressions[0] if node.expressions else None
    else:
        inner = node.this
    return DATE if env.kind(inner) in (DATE, TIMESTAMP) else NUMBER


def _arith_kind(env: TypeEnv, node: exp.Expression) -> str | None:
    left, right = env.kind(node.this), env.kind(node.expression)
    if left in (DATE, TIMESTAMP) and right in (DATE, TIMESTAMP) and isinstance(node, exp.Sub):
        return NUMBER if left == right == DATE else INTERVAL
    if left in (DATE, TIMESTAMP):
        return DATE if right != INTERVAL else left
    if right in (DATE, TIMESTAMP) and isinstance(node, exp.Add):
        return DATE
    if left == NUMBER and right == NUMBER:
        return NUMBER
    return None


def _first_known(env: TypeEnv, nodes: list) -> str | None:
    for n in nodes:
        k = env.kind(n)
        if k:
            return k
    return None
