"""A deployed PL/pgSQL routine as the reference resolver reads it: its names, their types, and
every SQL statement and expression in its body.

The source comes from the catalog (`pg_proc`, read by the execution role after deploy), the body's
structure from PostgreSQL's own PL/pgSQL grammar (`pglast.parse_plpgsql`), and every type from the
real catalog (`to_regtype`, `pg_attribute`) — never from guessing. libpg_query parses without a
catalog, so the text handed to it has composite and non-`pg_catalog` types replaced by `record`
and `text` (harness.resolution.plpgsql_decls says why); the types the resolver uses are the real ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pglast
import psycopg
from pglast import ast

from harness.quoting import quote_ident
from harness.resolution.pg_nodes import strings
from harness.resolution.plpgsql_decls import Declaration, declarations, fold_name, rewrite_types
from harness.resolution.plpgsql_loops import loop_records

# Keys under which a PL/pgSQL statement holds SQL *text* that EXECUTE runs (dynamic SQL).
_DYNAMIC = {
    ("PLpgSQL_stmt_dynexecute", "query"),
    ("PLpgSQL_stmt_dynfors", "query"),
    ("PLpgSQL_stmt_open", "dynquery"),
    ("PLpgSQL_stmt_return_query", "dynquery"),
}
_MODES = {"i": "IN", "o": "OUT", "b": "INOUT", "v": "VARIADIC", "t": "OUT"}


@dataclass(frozen=True)
class Symbol:
    type_oid: int = 0  # 0: not known (the server infers the parameter's type)
    composite: bool = False  # a row type: its fields are checked through ($n).field


@dataclass(frozen=True)
class Expr:
    line: int
    mode: int  # libpg_query's parseMode: 0 a statement, 2 an expression, 3-5 an assignment
    query: str
    dynamic: bool = False  # its value is SQL text that EXECUTE runs


@dataclass
class Routine:
    oid: int
    signature: str  # regprocedure text, for reports
    name: str
    config: list[tuple[str, str]]  # the routine's own SET clauses (e.g. search_path)
    symbols: dict[str, Symbol] = field(default_factory=dict)
    labels: set[str] = field(default_factory=set)
    positional: list[int] = field(default_factory=list)  # type of $1, $2, ...
    exprs: list[Expr] = field(default_factory=list)
    # FOR-loop records assigned by that loop only: name -> the loop's query (its shape is the
    # query's columns, filled into `shapes` by the resolver once the server described it)
    loops: dict[str, str] = field(default_factory=dict)
    shapes: dict[str, dict[str, int]] = field(default_factory=dict)
    problem: str | None = None  # why the body could not be read (then nothing is checked)


@dataclass(frozen=True)
class TypeInfo:
    kind: str  # pg_type.typtype
    category: str  # pg_type.typcategory ('A' arrays)
    schema: str
    name: str  # format_type()

    @property
    def composite(self) -> bool:
        return self.kind == "c"


_PROC = """
SELECT p.proname, p.prokind, p.proretset, p.prorettype, p.prosrc,
       coalesce(p.proallargtypes, p.proargtypes::oid[]), coalesce(p.proargmodes::text[], '{}'),
       coalesce(p.proargnames, '{}'), coalesce(p.proconfig, '{}'), p.oid::regprocedure::text,
       ARRAY(SELECT DISTINCT c.reltype FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
             WHERE t.tgfoid = p.oid)
FROM pg_proc p WHERE p.oid = %s"""
_TYPE = """
SELECT t.typtype::text, t.typcategory::text, n.nspname, format_type(t.oid, NULL)
FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE t.oid = %s"""
_ATTRIBUTE = """
SELECT a.atttypid FROM pg_attribute a
WHERE a.attrelid = to_regclass(%s) AND a.attname = %s AND a.attnum > 0 AND NOT a.attisdropped"""
_COMPOSITE_ATTRIBUTE = """
SELECT a.atttypid FROM pg_type t JOIN pg_attribute a ON a.attrelid = t.typrelid
WHERE t.oid = %s AND a.attname = %s AND a.attnum > 0 AND NOT a.attisdropped"""


class PgCatalog:
    """Type look-ups on the execution role's connection, each behind a savepoint: a name the
    catalog functions refuse must not abort the caller's transaction."""

    def __init__(self, conn: psycopg.Connection):
        self.conn = conn
        self._types: dict[int, TypeInfo | None] = {}

    def one(self, query: str, params: tuple) -> tuple | None:
        try:
            with self.conn.transaction():
                return self.conn.execute(query, params).fetchone()
        except psycopg.Error:
            return None

    def exists(self, query: str, params: tuple) -> bool:
        """Whether `query` finds a row; True when the look-up itself fails: unsure never reads
        as "missing"."""
        try:
            with self.conn.transaction():
                return self.conn.execute(query, params).fetchone() is not None
        except psycopg.Error:
            return True

    def type_info(self, oid: int) -> TypeInfo | None:
        if oid not in self._types:
            row = self.one(_TYPE, (oid,)) if oid else None
            self._types[oid] = TypeInfo(*row) if row else None
        return self._types[oid]

    def symbol(self, oid: int | None) -> Symbol:
        info = self.type_info(oid or 0)
        if info is None or info.kind == "p":  # `record`, `anyelement`: the shape is known only at run time
            return Symbol()
        return Symbol(oid or 0, info.composite)

    def parse_type(self, oid: int) -> str:
        """A stand-in libpg_query can parse for the type `oid` (it only tells rows from scalars)."""
        info = self.type_info(oid)
        if info is None:
            return "text"
        if info.composite:
            return "record"
        if info.category == "A":
            return "text[]"
        return info.name if info.schema == "pg_catalog" else "text"

    def resolve(self, text: str, symbols: dict[str, Symbol]) -> Symbol:
        """The declared type `text` (`t%ROWTYPE`, `t.c%TYPE`, `v%TYPE`, a type name) as a symbol."""
        lowered = "".join(text.split()).lower()
        if lowered.endswith("%rowtype"):
            row = self.one("SELECT reltype FROM pg_class WHERE oid = to_regclass(%s)", (text.strip()[:-8].strip(),))
            return self.symbol(row[0] if row else None)
        if lowered.endswith("%type"):
            return self._resolve_percent_type(text.strip()[:-5].strip(), symbols)
        row = self.one("SELECT to_regtype(%s)::oid", (text,))
        return self.symbol(row[0] if row else None)

    def _resolve_percent_type(self, name: str, symbols: dict[str, Symbol]) -> Symbol:
        parts = name_parts(name)
        if len(parts) == 1:
            return symbols.get(parts[0], Symbol())
        head = symbols.get(parts[0])
        if len(parts) == 2 and head is not None and head.composite:
            row = self.one(_COMPOSITE_ATTRIBUTE, (head.type_oid, parts[1]))
        else:
            row = self.one(_ATTRIBUTE, (".".join(quote_ident(p) for p in parts[:-1]), parts[-1]))
        return self.symbol(row[0] if row else None)


def name_parts(text: str) -> list[str]:
    """A dotted name as PostgreSQL folds it, read by PostgreSQL's parser ([] when it is not one)."""
    try:
        stmt = pglast.parse_sql(f"SELECT {text}")[0].stmt
    except Exception:
        return []
    if not isinstance(stmt, ast.SelectStmt) or not stmt.targetList:  # `x UNION SELECT y`: no name
        return []
    ref = stmt.targetList[0].val
    if not isinstance(ref, ast.ColumnRef) or not all(isinstance(f, ast.String) for f in ref.fields or ()):
        return []
    return strings(ref.fields)


@dataclass
class _Proc:
    name: str
    kind: str
    retset: bool
    rettype: int
    body: str
    argtypes: list[int]
    argmodes: list[str]
    argnames: list[str]
    config: list[str]
    signature: str
    trigger_rows: list[int]


def _header(proc: _Proc, catalog: PgCatalog) -> str:
    args = []
    for i, oid in enumerate(proc.argtypes):
        mode = _MODES.get(proc.argmodes[i] if i < len(proc.argmodes) else "i", "IN")
        name = proc.argnames[i] if i < len(proc.argnames) else ""
        args.append(" ".join(x for x in (mode, quote_ident(name) if name else "", catalog.parse_type(oid)) if x))
    head = f"{quote_ident(proc.name)}({', '.join(args)})"
    if proc.kind == "p":
        return f"CREATE PROCEDURE {head}"
    returns = catalog.parse_type(proc.rettype)
    return f"CREATE FUNCTION {head} RETURNS {'SETOF ' if proc.retset else ''}{returns}"


def _dollar_quote(body: str) -> str:
    tag, n = "$mig$", 0
    while tag in body:
        n += 1
        tag = f"$mig{n}$"
    return f"{tag}{body}{tag}"


def _declared(decls: list[Declaration], catalog: PgCatalog, symbols: dict[str, Symbol]) -> dict:
    """(name, line) -> symbol for every declared variable, and the parse-only type rewrites."""
    typed: dict[tuple[str, int], Symbol] = {}
    rewrites: dict[tuple[int, int], str] = {}
    for d in decls:
        if d.kind != "var":
            continue
        sym = catalog.resolve(d.type_text, symbols)
        typed[(d.name, d.line)] = sym
        symbols.setdefault(d.name, sym)  # later %TYPE references to this name
        span = d.type_span
        if span is None:  # a "var" declaration always has one: nothing to rewrite without it
            continue
        if "%" in d.type_text:
            if "rowtype" in d.type_text.lower() or sym.composite:
                rewrites[span] = "record"
        elif sym.type_oid:
            rewrites[span] = catalog.parse_type(sym.type_oid)
    return {"typed": typed, "rewrites": rewrites}


def _fetch(conn: psycopg.Connection, oid: int) -> _Proc | None:
    row = conn.execute(_PROC, (oid,)).fetchone()
    return _Proc(*row) if row else None


def _setting(entry: str) -> tuple[str, str]:
    """A `proconfig` entry `name=value` as (name, value); the value may contain `=`."""
    name, _, value = entry.partition("=")
    return name, value


def load_routine(conn: psycopg.Connection, oid: int, catalog: PgCatalog | None = None) -> Routine:
    catalog = catalog or PgCatalog(conn)
    proc = _fetch(conn, oid)
    if proc is None:
        return Routine(oid, str(oid), "", [], problem="not found in pg_proc")
    config = [_setting(c) for c in proc.config if "=" in c]
    routine = Routine(oid, proc.signature, proc.name, config, positional=list(proc.argtypes))
    params = {n: catalog.symbol(t) for n, t in zip(proc.argnames, proc.argtypes) if n}
    decls = declarations(proc.body)
    known = dict(params)
    found = _declared(decls, catalog, known)
    text = f"{_header(proc, catalog)} LANGUAGE plpgsql AS {_dollar_quote(rewrite_types(proc.body, found['rewrites']))}"
    try:
        tree = pglast.parse_plpgsql(text)[0]["PLpgSQL_function"]
    except Exception as exc:  # pglast.parser.ParseError and libpg_query's "not implemented" cases
        routine.problem = f"pglast cannot read the body: {exc}"
        return routine
    _symbols(routine, tree, params, found["typed"], proc, catalog)
    _aliases(routine, decls)
    routine.labels.add(proc.name)
    _collect(tree.get("datums", []), routine, "", 0)  # defaults and cursor queries
    _collect(tree.get("action", {}), routine, "", 0)
    routine.exprs = list(dict.fromkeys(routine.exprs))  # a loop variable's datum is repeated in its loop
    typed = {name for name, sym in routine.symbols.items() if sym.type_oid}
    routine.loops = loop_records(tree, typed)
    return routine


def _datum_symbol(name: str, body: dict, kind: str, ctx: tuple) -> Symbol:
    params, typed, proc, catalog = ctx
    if "lineno" not in body and name in params:
        return params[name]
    if (name, body.get("lineno", 0)) in typed:
        return typed[(name, body["lineno"])]
    if kind == "PLpgSQL_rec" and name in ("new", "old") and len(set(proc.trigger_rows)) == 1:
        return catalog.symbol(proc.trigger_rows[0])
    if kind == "PLpgSQL_var" and name.startswith("__Case__Variable_"):
        return Symbol()  # CASE's hidden variable takes the type of its expression at run time
    if kind == "PLpgSQL_var":
        typname = body.get("datatype", {}).get("PLpgSQL_type", {}).get("typname", "")
        return catalog.resolve(typname, {}) if typname and "%" not in typname else Symbol()
    return Symbol()


def _symbols(routine: Routine, tree: dict, params: dict, typed: dict, proc: _Proc, catalog: PgCatalog) -> None:
    """Every named datum; a name declared more than once with different types gets no type."""
    for datum in tree.get("datums", []):
        kind, body = next(iter(datum.items()))
        name = body.get("refname")
        if kind not in ("PLpgSQL_var", "PLpgSQL_rec") or not name:
            continue
        sym = _datum_symbol(name, body, kind, (params, typed, proc, catalog))
        if name in routine.symbols and routine.symbols[name] != sym:
            sym = Symbol()
        routine.symbols[name] = sym


def _aliases(routine: Routine, decls: list[Declaration]) -> None:
    for d in decls:
        if d.kind != "alias":
            continue
        target = d.type_text
        if target.startswith("$") and target[1:].isdigit() and 0 < int(target[1:]) <= len(routine.positional):
            routine.symbols[d.name] = Symbol(routine.positional[int(target[1:]) - 1])
        else:
            routine.symbols[d.name] = routine.symbols.get(fold_name(target), Symbol())


def _collect(node, routine: Routine, key: str, line: int, parent: str = "") -> None:
    """Every PLpgSQL_expr under `node`, with the line of its statement and its role."""
    if isinstance(node, list):
        for item in node:
            _collect(item, routine, key, line, parent)
        return
    if not isinstance(node, dict):
        return
    for kind, body in node.items():
        if kind == "PLpgSQL_expr" and isinstance(body, dict):
            dynamic = (parent, key) in _DYNAMIC
            routine.exprs.append(Expr(line, body.get("parseMode", 0), body.get("query", ""), dynamic))
            continue
        if not isinstance(body, dict):
            continue
        here = body.get("lineno", line)
        if body.get("label"):
            routine.labels.add(body["label"])
        for sub_key, value in body.items():
            _collect(value, routine, sub_key, here, kind)
