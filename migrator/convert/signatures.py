"""The converted signature of every routine of the export, and how a call binds to one of them.

PostgreSQL chooses a function or procedure by its arguments' types, through implicit casts only:
a `numeric` argument never reaches an `integer` parameter (a `NUMBER(9)` column's `%TYPE`), a
`varchar` never reaches a `numeric` one. Oracle converts both implicitly. So every call between
converted routines is bound here as Oracle binds it — positional and named arguments, defaults,
the overload Oracle picks — and the call sites (`plsql/emit_call.py` for CALL statements,
`sql/implicit.py` for calls in expressions and SQL) convert each argument to the chosen
parameter's type where PostgreSQL would not.

The signatures are computed once per run, before any unit is converted (`plsql.signatures`), from
the callee's own declarations (its `%TYPE` anchors and package types resolved as its conversion
resolves them), and kept in the schema model: ``signatures`` of a standalone routine's catalog
entry, ``package.signatures[member]`` of a package's.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from migrator.convert.context import Catalog
from migrator.convert.sql.expression_types import DATE, INTERVAL, NUMBER, STRING, TIMESTAMP, classify
from migrator.oracle_types import is_clob, takes_no_scalar, takes_text_only


@dataclass(frozen=True)
class ParamSig:
    name: str
    mode: str  # IN | OUT | INOUT, as Oracle declares it
    pg: str  # the type the converted routine declares
    ora: str = ""  # its Oracle spelling (%TYPE resolved); "" for records, collections, objects
    default: bool = False  # Oracle declares a default: a call may leave it out

    @property
    def kind(self) -> str | None:
        return classify(self.ora) if self.ora else None

    @property
    def base(self) -> str:
        return base_type(self.pg)


@dataclass(frozen=True)
class RoutineSig:
    kind: str  # FUNCTION | PROCEDURE
    target: tuple[str, str]  # (schema, name) of the converted routine, plain parts
    params: tuple[ParamSig, ...]
    returns_pg: str = ""
    returns_ora: str = ""


@dataclass(frozen=True)
class Arg:
    """One argument at a call site, as far as the converter knows it."""

    name: str | None  # named notation (`p => v`): the parameter's plain name
    kind: str | None = None  # coarse Oracle type (sql.expression_types); None: unknown
    pg: str | None = None  # PostgreSQL type of the argument when known; "unknown" for '...' and NULL
    lob: bool = False  # known to be a CLOB/NCLOB value (text that is not, binds to VARCHAR2 first)


@dataclass(frozen=True)
class Binding:
    sig: RoutineSig
    params: tuple[ParamSig, ...]  # the parameter each argument binds to, in argument order


# ---- PostgreSQL types ---------------------------------------------------------------------------
_TYPMOD = re.compile(r"\s*\([^)]*\)")
_ALIASES = {
    "int": "integer",
    "int4": "integer",
    "int8": "bigint",
    "int2": "smallint",
    "decimal": "numeric",
    "character varying": "varchar",
    "char": "bpchar",
    "character": "bpchar",
    "float8": "double precision",
    "float4": "real",
    "timestamp without time zone": "timestamp",
    "timestamp with time zone": "timestamptz",
    "bool": "boolean",
}
NUMERIC_TYPES = frozenset({"smallint", "integer", "bigint", "numeric", "real", "double precision"})
STRING_TYPES = frozenset({"varchar", "text", "bpchar"})
TIME_TYPES = frozenset({"timestamp", "timestamptz", "date"})
# PostgreSQL's implicit casts among these (pg_cast, castcontext 'i'): what a call resolves through.
_IMPLICIT = {
    "smallint": {"integer", "bigint", "numeric", "real", "double precision"},
    "integer": {"bigint", "numeric", "real", "double precision"},
    "bigint": {"numeric", "real", "double precision"},
    "numeric": {"real", "double precision"},
    "real": {"double precision"},
    "varchar": {"text", "bpchar"},
    "text": {"varchar", "bpchar"},
    "bpchar": {"text", "varchar"},
    "date": {"timestamp", "timestamptz"},
    "timestamp": {"timestamptz"},
}
# Oracle's implicit conversions between the coarse kinds (SQL Language Reference, "Implicit Data
# Conversion"): what a call binds through when no overload takes the kind itself.
_ORACLE_IMPLICIT = {
    (STRING, NUMBER),
    (STRING, DATE),
    (STRING, TIMESTAMP),
    (STRING, INTERVAL),
    (NUMBER, STRING),
    (DATE, STRING),
    (TIMESTAMP, STRING),
    (INTERVAL, STRING),
    (DATE, TIMESTAMP),
    (TIMESTAMP, DATE),
}


@functools.lru_cache(maxsize=4096)
def base_type(pg: str) -> str:
    """A PostgreSQL type spelling without its modifiers, in one canonical name (`varchar(40)` →
    `varchar`, `char(6)` → `bpchar`, `timestamp(0)` → `timestamp`, `DECIMAL` → `numeric`)."""
    text = " ".join(_TYPMOD.sub("", pg).lower().split())
    return _ALIASES.get(text, text)


def family(pg: str) -> str | None:
    """number | string | time for the scalar types a call converts between, else None."""
    base = base_type(pg)
    if base in NUMERIC_TYPES:
        return NUMBER
    if base in STRING_TYPES:
        return STRING
    if base in TIME_TYPES:
        return TIMESTAMP
    return None


def resolves(arg_pg: str | None, param_pg: str) -> bool:
    """Whether PostgreSQL passes an argument of type `arg_pg` to `param_pg` by itself (same type,
    an implicit cast, or an untyped literal). An unknown argument type is not known to resolve."""
    if arg_pg is None:
        return False
    arg, param = base_type(arg_pg), base_type(param_pg)
    return arg in ("unknown", param) or param in _IMPLICIT.get(arg, ())


def conversion(arg: Arg, param: ParamSig) -> str | None:
    """How an IN argument must be converted for PostgreSQL to pass it to `param`, as Oracle would:
    "cast" (to the parameter's type: Oracle's TO_NUMBER / TO_DATE / numeric conversion), "text"
    (Oracle's implicit TO_CHAR), or None (it resolves as it is, or Oracle would not convert it)."""
    target = family(param.pg) or _ora_family(param)
    if target is None or resolves(arg.pg, param.pg):
        return None
    source = arg.kind or (family(arg.pg) if arg.pg else None)
    if target == NUMBER:
        return None if source in (DATE, TIMESTAMP, INTERVAL) else "cast"
    if target == STRING:
        return "text" if source in (NUMBER, DATE, TIMESTAMP) else None
    return None if source in (NUMBER, INTERVAL) else "cast"  # a date or timestamp


def _ora_family(param: ParamSig) -> str | None:
    """The family of a parameter whose PostgreSQL type is a domain (a package SUBTYPE of INTEGER,
    VARCHAR2, DATE …), from its Oracle type: Oracle converts into it as into its base type."""
    kind = param.kind
    if kind in (NUMBER, STRING):
        return kind
    return TIMESTAMP if kind in (DATE, TIMESTAMP) else None


def pins_overload(arg: Arg, param: ParamSig, overloaded: bool) -> bool:
    """Whether an argument PostgreSQL would pass as it is must still be cast to the parameter's
    type so that PostgreSQL picks the overload Oracle picked: an untyped literal or NULL, or a
    value of the parameter's kind but another type (text for a VARCHAR2 overload beside a CLOB
    one, which is text here too; or converted text whose PostgreSQL type is not known)."""
    if not overloaded or family(param.pg) is None:
        return False
    if arg.pg == "unknown":
        return True
    return arg.kind is not None and arg.kind == param.kind and (arg.pg is None or base_type(arg.pg) != param.base)


# ---- binding a call ---------------------------------------------------------------------------------
def bind(sig: RoutineSig, args: list[Arg]) -> tuple[ParamSig, ...] | None:
    """The parameter of each argument when the call fits `sig` by Oracle's rules (positional
    arguments first, then named ones; every parameter left out has a default), else None."""
    positional = 0
    while positional < len(args) and args[positional].name is None:
        positional += 1
    if positional > len(sig.params) or any(a.name is None for a in args[positional:]):
        return None
    by_name = {p.name: p for p in sig.params}
    bound = list(sig.params[:positional])
    for a in args[positional:]:
        p = by_name.get(a.name or "")
        if p is None or p in bound:
            return None
        bound.append(p)
    if any(p not in bound and not p.default for p in sig.params):
        return None
    return tuple(bound)


def _scalar_distance(arg: Arg, param: ParamSig) -> tuple[int, int, int] | None:
    """A scalar argument's distance to a parameter whose type is no scalar kind: records,
    collections and objects (no Oracle spelling), XMLTYPE, BOOLEAN, cursors take none; RAW and
    BLOB take text through a conversion; anything else is not known to refuse it."""
    ora = " ".join(param.ora.upper().split())
    if not ora or takes_no_scalar(ora):
        return None
    if takes_text_only(ora):
        return (1, 0, 0) if arg.kind == STRING else None
    return (0, 0, 0)


def _distance(arg: Arg, param: ParamSig) -> tuple[int, int, int] | None:
    """How far `arg` is from `param` in Oracle's overload resolution: (0, 0, 0) its own kind and
    type; (0, 1, 0) text into a CLOB where it is no CLOB (or a CLOB into VARCHAR2): Oracle
    prefers the character overload for a character value; (0, 0, 1) its kind, another type;
    (1, 0, 0) through an implicit conversion; None not at all."""
    if param.mode != "IN" or arg.kind is None:
        return (0, 0, 0)
    if param.kind is None:
        return _scalar_distance(arg, param)
    if arg.kind == param.kind:
        lob = arg.kind == STRING and arg.lob != is_clob(param.ora)
        return (0, int(lob), 0 if arg.pg is None or base_type(arg.pg) == param.base else 1)
    return (1, 0, 0) if (arg.kind, param.kind) in _ORACLE_IMPLICIT else None


def choose(sigs: list[RoutineSig], args: list[Arg], kind: str | None = None) -> Binding | str | None:
    """The signature Oracle binds the call to; a message when Oracle would refuse the call (no
    signature fits, or several fit equally: PLS-00306 / PLS-00307); None when the arguments' types
    are too little known to tell overloads apart. `kind` (FUNCTION in an expression, PROCEDURE
    in a call statement) keeps the overloads a call of that place can reach."""
    if kind is not None and any(s.kind == kind for s in sigs):
        sigs = [s for s in sigs if s.kind == kind]
    fitting: list[tuple[tuple[int, int, int], Binding]] = []
    arity = False
    for sig in sigs:
        params = bind(sig, args)
        if params is None:
            continue
        arity = True
        dists = [_distance(a, p) for a, p in zip(args, params)]
        if all(d is not None for d in dists):
            total = (
                sum(d[0] for d in dists if d),
                sum(d[1] for d in dists if d),
                sum(d[2] for d in dists if d),
            )
            fitting.append((total, Binding(sig, params)))
    if not fitting:
        if not arity:
            return "no signature takes these arguments (number or names)"
        return "no signature takes these argument types"
    best = min(d for d, _ in fitting)
    top = [b for d, b in fitting if d == best]
    if len(top) == 1:
        return top[0]
    if any(a.kind is None for a in args):
        return None
    return f"{len(top)} signatures fit equally"


PROCEDURE_SUFFIX = "__proc"


def procedure_name(sigs: list[RoutineSig], sig: RoutineSig) -> str:
    """The PostgreSQL name of procedure `sig` among the overloads `sigs` of its name. Oracle lets
    a package declare a function and a procedure of one name with the same parameters, or with
    parameters one call can fill for both (extra ones defaulted: `_callable_alike`) (a call
    statement reaches the procedure, an expression the function); PostgreSQL keeps functions and
    procedures in one namespace identified by name and input types ("cannot change routine
    kind"), so such a procedure is ``<name>__proc``, and every call statement bound to it names
    it so (`plsql/emit_call.procedure_call`)."""
    name = sig.target[1]
    if sig.kind != "PROCEDURE":
        return name
    mine = tuple(p for p in sig.params if p.mode != "OUT")
    clash = any(
        s.kind == "FUNCTION" and _callable_alike(tuple(p for p in s.params if p.mode != "OUT"), mine) for s in sigs
    )
    return name + PROCEDURE_SUFFIX if clash else name


def _callable_alike(a: tuple[ParamSig, ...], b: tuple[ParamSig, ...]) -> bool:
    """One call could reach either routine: the inputs of one are those of the other (types in
    order) followed only by defaulted ones. `function eq(x varchar2, y varchar2)` and `procedure
    eq(x varchar2, y varchar2, comment varchar2 default null)` are both candidates for
    `eq(x => 1, y => 2)` in PostgreSQL ("is not unique"), though Oracle tells them apart by the
    call's position (an expression or a statement)."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if tuple(p.base for p in long[: len(short)]) != tuple(p.base for p in short):
        return False
    return all(p.default for p in long[len(short) :])


# ---- where the signatures are -----------------------------------------------------------------------
def package_signatures(catalog: Catalog, pkg: tuple[str, ...]) -> dict[str, list[RoutineSig]] | None:
    entry = catalog.lookup(*pkg) if 0 < len(pkg) <= 2 else None
    info = entry.package if entry is not None else None
    return info.signatures if info else None


def lookup(catalog: Catalog, parts: tuple[str, ...], schema: str | None = None) -> list[RoutineSig] | None:
    """The signatures of the routine a call names: `f` (in `schema` first, then the default
    schema), `pkg.f`, `schema.f`, `schema.pkg.f`; None when it names no routine of the export."""
    if len(parts) == 1:
        entry = catalog.lookup(schema, parts[0]) if schema else None
        entry = entry if entry is not None and entry.signatures else catalog.lookup(parts[0])
        return entry.signatures if entry is not None else None
    members = package_signatures(catalog, parts[:-1])
    if members is not None:
        return members.get(parts[-1])
    if len(parts) == 2:
        entry = catalog.lookup(*parts)
        return entry.signatures if entry is not None else None
    return None
