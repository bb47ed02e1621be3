"""Which name a failed Parse could not resolve — only when the catalog confirms it exists nowhere.

The error's position (a character offset, not the message text, which depends on the server's
language) points at a node of the analysed statement: a column reference, a relation, a function
call, a type name, a field selection on a parameter, a target column of INSERT/UPDATE, or a
relation name in a string (`nextval('seq')`). The name is reported only when the catalog has no
object of that name at all (in any schema, for an unqualified name), when it is no PL/pgSQL
variable or label, and when no routine body creates a relation of that name at run time.
"""

from __future__ import annotations

from pglast import ast

from harness.quoting import quote_ident
from harness.resolution.pg_nodes import string_constant, strings
from harness.resolution.prepare_check import MISSING_STATES, CheckText, single_statement, walk
from harness.resolution.routine_model import PgCatalog, Routine, name_parts

_RELATION = """
SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relname = %s AND (%s::text IS NULL OR n.nspname = %s) LIMIT 1"""
_ROUTINE = """
SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.proname = %s AND (%s::text IS NULL OR n.nspname = %s) LIMIT 1"""
_TYPE = """
SELECT 1 FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
WHERE t.typname = %s AND (%s::text IS NULL OR n.nspname = %s) LIMIT 1"""
_SCHEMA = "SELECT 1 FROM pg_namespace WHERE nspname = %s"
_COLUMN = """
SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass(%s) AND attname = %s AND attnum > 0 AND NOT attisdropped"""
_FIELD = """
SELECT 1 FROM pg_type t JOIN pg_attribute a ON a.attrelid = t.typrelid
WHERE t.oid = %s AND a.attname = %s AND a.attnum > 0 AND NOT a.attisdropped"""
_PRIORITY = (ast.ColumnRef, ast.FuncCall, ast.RangeVar, ast.TypeName, ast.ParamRef, ast.A_Const, ast.ResTarget)


def _exists(catalog: PgCatalog, query: str, name: str, schema: str | None) -> bool:
    return catalog.exists(query, (name, schema, schema))


def _schema(catalog: PgCatalog, schema: str | None) -> str | None:
    if schema is None or catalog.exists(_SCHEMA, (schema,)):
        return None
    return f"schema {schema}"


def _column_ref(catalog: PgCatalog, node: ast.ColumnRef, state: str, routine: Routine) -> str | None:
    parts = strings(node.fields)
    if not parts or any(p in routine.symbols or p in routine.labels for p in parts):
        return None
    dotted = ".".join(parts)
    if state == "42703":
        return f"column {dotted}"
    if state == "42P01" and len(parts) >= 2:  # "missing FROM-clause entry": no table, no record
        return f"table {'.'.join(parts[:-1])} (in {dotted})"
    return None


def _split(parts: list[str]) -> tuple[str | None, str]:
    return (parts[-2] if len(parts) > 1 else None), parts[-1]


def _function(catalog: PgCatalog, node: ast.FuncCall, state: str) -> str | None:
    parts = strings(node.funcname)
    schema, name = _split(parts)
    if state == "3F000":
        return _schema(catalog, schema)
    if state != "42883" or _exists(catalog, _ROUTINE, name, schema):
        return None
    return f"function {'.'.join(parts)}"


def _relation(catalog: PgCatalog, node: ast.RangeVar, state: str, created: frozenset[str]) -> str | None:
    if state == "3F000":
        return _schema(catalog, node.schemaname)
    name = node.relname
    if state != "42P01" or name is None or name in created or _exists(catalog, _RELATION, name, node.schemaname):
        return None
    return "table " + ".".join(p for p in (node.schemaname, node.relname) if p)


def _type(catalog: PgCatalog, node: ast.TypeName, state: str) -> str | None:
    parts = strings(node.names)
    if not parts:
        return None
    schema, name = _split(parts)
    if state == "3F000":
        return _schema(catalog, schema)
    if state != "42704" or _exists(catalog, _TYPE, name, schema):
        return None
    return f"type {'.'.join(parts)}"


def _field(catalog: PgCatalog, node: ast.ParamRef, parent, check: CheckText) -> str | None:
    number = node.number
    if not isinstance(parent, ast.A_Indirection) or number is None or not 0 < number <= len(check.types):
        return None
    field = next(iter(strings(parent.indirection)), None)
    type_oid = check.types[number - 1]
    info = catalog.type_info(type_oid)
    if field is None or info is None or not info.composite or catalog.exists(_FIELD, (type_oid, field)):
        return None
    return f"field {check.names[number - 1]}.{field} (no such column in {info.name})"


def _string_relation(catalog: PgCatalog, node: ast.A_Const, state: str, created: frozenset[str]) -> str | None:
    text = string_constant(node)
    if state != "42P01" or text is None:
        return None
    parts = name_parts(text)
    if not parts or parts[-1] in created:
        return None
    schema, name = _split(parts)
    return None if _exists(catalog, _RELATION, name, schema) else f"relation {text}"


def _target_column(catalog: PgCatalog, node: ast.ResTarget, stmt, state: str) -> str | None:
    if state != "42703" or not node.name or not isinstance(stmt, (ast.InsertStmt, ast.UpdateStmt)):
        return None
    relation = stmt.relation
    if relation is None:  # the grammar always names the target table; pglast types it optional
        return None
    name = ".".join(quote_ident(p) for p in (relation.schemaname, relation.relname) if p)
    if catalog.one("SELECT to_regclass(%s)", (name,)) in (None, (None,)):
        return None
    if catalog.exists(_COLUMN, (name, node.name)):
        return None
    return f"column {relation.relname}.{node.name}"


def _parts(node) -> set[str]:
    """Every name a node spells (for names the caller knows will exist later)."""
    out = {getattr(node, a, None) for a in ("relname", "schemaname", "name")}
    for attr in ("fields", "funcname", "names"):
        out |= set(strings(getattr(node, attr, None)))
    if (text := string_constant(node)) is not None:
        out |= set(name_parts(text))
    return {p for p in out if p}


def missing_name(
    catalog: PgCatalog,
    check: CheckText,
    error: tuple[str, int | None],
    routine: Routine,
    created: frozenset[str],
    ignore: frozenset[str] = frozenset(),
) -> str | None:
    """The missing name at the error's position, confirmed by the catalog; None when unsure or
    when the name is one of `ignore` (objects that will exist but are not deployed yet)."""
    state, position = error
    if state not in MISSING_STATES or not position:
        return None
    stmt = single_statement(check.text)
    if stmt is None:
        return None
    at = {type(n): (n, p) for n, p in walk(stmt) if getattr(n, "location", None) == position - 1}
    for kind in _PRIORITY:
        if kind not in at:
            continue
        node, parent = at[kind]
        found = _dispatch(catalog, node, parent, stmt, state, check, routine, created)
        if found is not None:
            return None if _parts(node) & ignore else found
    return None


def _dispatch(catalog, node, parent, stmt, state, check, routine, created) -> str | None:
    if isinstance(node, ast.ColumnRef):
        return _column_ref(catalog, node, state, routine)
    if isinstance(node, ast.FuncCall):
        return _function(catalog, node, state)
    if isinstance(node, ast.RangeVar):
        return _relation(catalog, node, state, created)
    if isinstance(node, ast.TypeName):
        return _type(catalog, node, state)
    if isinstance(node, ast.ParamRef):
        return _field(catalog, node, parent, check)
    if isinstance(node, ast.A_Const):
        return _string_relation(catalog, node, state, created)
    return _target_column(catalog, node, stmt, state)
