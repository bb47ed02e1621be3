"""Statements of install scripts that change objects or the session rather than define them:
ALTER TRIGGER, ALTER TYPE, ALTER SESSION (NLS and compiler settings), CREATE DIMENSION, CREATE /
DROP DIRECTORY, DROP.

Each gets Oracle's meaning on PostgreSQL or a precise reason why not:

* ``ALTER TRIGGER t ENABLE | DISABLE`` → `oracompat.trigger_state` (the trigger found by name in
  its schema: PostgreSQL names triggers per table); ``COMPILE`` → nothing (PostgreSQL checks a
  routine when it is created; the unit's deployment is its compilation).
* ``ALTER TYPE t COMPILE`` → nothing, as above; ``ALTER TYPE t ADD | DROP ATTRIBUTE`` of an object
  type outside a hierarchy → PostgreSQL's ``ALTER TYPE ... ADD | DROP ATTRIBUTE ... CASCADE``
  (Oracle's CASCADE propagates to dependent tables, as PostgreSQL's does).
* ``ALTER SESSION SET`` of a setting every rule already assumes (NLS_LANGUAGE AMERICAN,
  NLS_TERRITORY AMERICA, NLS_DATE_FORMAT 'DD-MON-RR', ...) or of a compiler / diagnostic setting
  with no effect on results → nothing (noted); any other value is refused, since implicit
  conversions were converted for Oracle's defaults.
* ``CREATE DIMENSION`` declares hierarchies for query rewrite: no query result depends on it, and
  PostgreSQL has no such object → nothing (noted).
* ``CREATE [OR REPLACE] DIRECTORY d AS 'path'`` / ``DROP DIRECTORY d`` → the file gate's mapping
  (``oracompat_fs.create_directory``), which UTL_FILE reads.
* ``DROP TABLE | VIEW | MATERIALIZED VIEW | INDEX | SEQUENCE | TYPE | PACKAGE | PROCEDURE |
  FUNCTION | TRIGGER | [PUBLIC] SYNONYM`` → PostgreSQL's DROP of what the converter made of it (a
  package is a schema, a collection type or subtype a domain, a synonym a view). In a script (``top_level``) ``IF EXISTS`` is
  added: SQL*Plus reports a failed DROP and goes on, so an absent object changes nothing either
  way; inside PL/SQL (EXECUTE IMMEDIATE) the error is kept, since handlers test for it.
"""

from __future__ import annotations

from harness.quoting import comment_text, pg_string, quote_ident
from migrator.convert import type_hierarchy as hier
from migrator.convert.context import ConversionContext
from migrator.convert.datatypes import map_type
from migrator.convert.ddl.common import unconverted
from migrator.convert.ddl.tokens import Name, ident, read_name, source
from migrator.convert.schema_model import CollectionType, ObjectType
from migrator.source.lexer import QIDENT, LexError, Token, matching_paren, split_top_level, string_value, tokenize

# Session settings every rule is written for (Oracle's AMERICAN defaults): setting them again
# changes nothing the converted code does.
_ASSUMED = {
    "NLS_LANGUAGE": {"AMERICAN"},
    "NLS_TERRITORY": {"AMERICA"},
    "NLS_DATE_LANGUAGE": {"AMERICAN"},
    "NLS_DATE_FORMAT": {"DD-MON-RR"},
    "NLS_TIMESTAMP_FORMAT": {"DD-MON-RR HH.MI.SSXFF AM"},
    "NLS_NUMERIC_CHARACTERS": {".,"},
    "NLS_SORT": {"BINARY"},
    "NLS_COMP": {"BINARY"},
    "NLS_LENGTH_SEMANTICS": {"CHAR"},  # PostgreSQL's varchar(n) counts characters
}
# Settings of the compiler, tracing and the optimizer: no effect on what a statement returns.
_NO_EFFECT = {
    "PLSQL_WARNINGS",
    "PLSCOPE_SETTINGS",
    "PLSQL_OPTIMIZE_LEVEL",
    "PLSQL_CODE_TYPE",
    "PLSQL_DEBUG",
    "SQL_TRACE",
    "TRACEFILE_IDENTIFIER",
    "STATISTICS_LEVEL",
    "TIMED_STATISTICS",
    "EVENTS",
    "DDL_LOCK_TIMEOUT",
    "RECYCLEBIN",
    "SKIP_UNUSABLE_INDEXES",
    "WORKAREA_SIZE_POLICY",
    "SORT_AREA_SIZE",
    "HASH_AREA_SIZE",
    "DB_FILE_MULTIBLOCK_READ_COUNT",
    "QUERY_REWRITE_ENABLED",
    "QUERY_REWRITE_INTEGRITY",
    "PARALLEL_DEGREE_POLICY",
}
_NO_EFFECT_PREFIXES = ("OPTIMIZER_", "_")

_DROPPABLE = (
    "TABLE",
    "VIEW",
    "MATERIALIZED",
    "INDEX",
    "SEQUENCE",
    "TYPE",
    "PACKAGE",
    "PROCEDURE",
    "FUNCTION",
    "TRIGGER",
)


def handles(toks: list[Token]) -> bool:
    """The statement is one this module converts (by its leading words)."""
    if len(toks) < 2:
        return False
    if toks[0].is_word("ALTER"):
        return toks[1].is_word("TRIGGER", "TYPE", "SESSION")
    if toks[0].is_word("CREATE"):
        return toks[1].is_word("DIMENSION", "DIRECTORY") or (
            toks[1].is_word("OR") and any(t.is_word("DIMENSION", "DIRECTORY") for t in toks[:4])
        )
    if toks[0].is_word("DROP") and toks[1].is_word("DIRECTORY"):
        return True
    if toks[0].is_word("DROP") and toks[1].is_word("PUBLIC") and len(toks) > 2:
        return toks[2].is_word("SYNONYM")
    return toks[0].is_word("DROP") and toks[1].is_word(*_DROPPABLE, "SYNONYM")


def convert_admin(text: str, ctx: ConversionContext, top_level: bool = True) -> str:
    """The PostgreSQL text of an ALTER TRIGGER / TYPE / SESSION, CREATE DIMENSION or DROP."""
    try:
        toks = tokenize(text)
        if toks and toks[-1].is_op(";"):
            toks = toks[:-1]
        if any(t.is_word("DIRECTORY") for t in toks[:4]):
            return _directory(text, toks, ctx)
        if toks[0].is_word("DROP"):
            return _drop(toks, ctx, top_level)
        if toks[0].is_word("CREATE"):
            return _dimension(text, ctx)
        if toks[1].is_word("TRIGGER"):
            return _alter_trigger(toks, ctx)
        if toks[1].is_word("TYPE"):
            return _alter_type(text, toks, ctx)
        return _alter_session(text, toks, ctx)
    except (LexError, IndexError) as exc:
        head = " ".join(t.text.upper() for t in tokenize(text)[:2]) if text.strip() else "statement"
        return unconverted(ctx, head, str(exc), text)


def _owner(name: Name) -> str:
    return pg_string(name[0]) if len(name) > 1 else "NULL"


def _alter_trigger(toks: list[Token], ctx: ConversionContext) -> str:
    name, i = read_name(toks, 2)
    verb = toks[i].text.upper() if i < len(toks) else ""
    if verb in ("ENABLE", "DISABLE"):
        ctx.applied("ddl.admin")
        ctx.note(f"ALTER TRIGGER {name.last} {verb}: the trigger is found by name in its schema at run time")
        enable = "true" if verb == "ENABLE" else "false"
        return f"SELECT oracompat.trigger_state({_owner(name)}, {pg_string(name.last)}, {enable});"
    if verb == "COMPILE":
        ctx.applied("ddl.admin")
        ctx.note(f"ALTER TRIGGER {name.last} COMPILE: PostgreSQL checks a trigger when it is created")
        return f"-- ALTER TRIGGER {comment_text(name.sql)} COMPILE: nothing to do in PostgreSQL"
    raise LexError(f"ALTER TRIGGER ... {verb or '(nothing)'} is not converted")


def _alter_type(text: str, toks: list[Token], ctx: ConversionContext) -> str:
    name, i = read_name(toks, 2)
    verb = toks[i].text.upper() if i < len(toks) else ""
    if verb == "COMPILE":
        ctx.applied("ddl.admin")
        ctx.note(f"ALTER TYPE {name.last} COMPILE: PostgreSQL checks a type and its methods when they are created")
        return f"-- ALTER TYPE {comment_text(name.sql)} COMPILE: nothing to do in PostgreSQL"
    if verb not in ("ADD", "DROP") or not toks[i + 1].is_word("ATTRIBUTE"):
        raise LexError(f"ALTER TYPE ... {verb or '(nothing)'} is not converted")
    entry = ctx.catalog.lookup(*name)
    info = entry.declared_type if entry is not None else None
    if isinstance(info, CollectionType):
        raise LexError(f"{verb} ATTRIBUTE on collection type {name.last}")
    if (
        isinstance(info, ObjectType)
        and entry is not None
        and hier.in_hierarchy(ctx.catalog, (entry.schema, entry.name))
    ):
        raise LexError(
            f"{verb} ATTRIBUTE on {name.last}, a type of a hierarchy (one composite for the whole"
            " hierarchy, its constructors and dispatchers built from the declared attributes): not converted"
        )
    j = i + 2
    if toks[j].text == "(":
        end = matching_paren(toks, j)
        elements = split_top_level(toks[j + 1 : end])
        rest = toks[end + 1 :]
    else:
        k = (
            j + 1
            if verb == "DROP"
            else next((n for n in range(j, len(toks)) if toks[n].is_word("CASCADE", "INVALIDATE")), len(toks))
        )
        elements, rest = [toks[j:k]], toks[k:]
    if any(t.is_word("INVALIDATE") for t in rest):
        ctx.note("INVALIDATE: dependents are not checked by Oracle; PostgreSQL's CASCADE updates them")
    actions = []
    for el in elements:
        attr = quote_ident(ident(el[0]))
        if verb == "ADD":
            actions.append(f"ADD ATTRIBUTE {attr} {map_type(source(text, el[1:]), ctx)}")
        else:
            actions.append(f"DROP ATTRIBUTE {attr}")
    ctx.applied("ddl.admin")
    return f"ALTER TYPE {name.sql} " + ", ".join(f"{a} CASCADE" for a in actions) + ";"


def _alter_session(text: str, toks: list[Token], ctx: ConversionContext) -> str:
    """ALTER SESSION SET p = v [p = v ...]: each setting assumed already or without effect."""
    if not toks[2].is_word("SET"):
        raise LexError(f"ALTER SESSION {toks[2].text.upper()} is not converted")
    i, seen = 3, []
    while i < len(toks):
        param = toks[i].text.upper()
        if not toks[i + 1].is_op("="):
            raise LexError(f"ALTER SESSION SET {param}: expected '='")
        value_tok = toks[i + 2]
        value = (
            value_tok.text.strip("'\"").upper() if value_tok.kind in ("string", "qident") else value_tok.text.upper()
        )
        i += 3
        if param in _ASSUMED:
            if value not in _ASSUMED[param]:
                raise LexError(
                    f"ALTER SESSION SET {param} = {value}: the converted code is written for"
                    f" {sorted(_ASSUMED[param])[0]} (Oracle's AMERICAN defaults); implicit conversions would differ"
                )
        elif param not in _NO_EFFECT and not param.startswith(_NO_EFFECT_PREFIXES):
            raise LexError(f"ALTER SESSION SET {param} is not converted")
        seen.append(f"{param} = {value}")
    ctx.applied("ddl.admin")
    ctx.note(f"ALTER SESSION SET {', '.join(seen)}: what every rule assumes already, or no effect on results")
    return f"-- ALTER SESSION SET {comment_text(', '.join(seen))}: nothing to change in PostgreSQL"


def _dimension(text: str, ctx: ConversionContext) -> str:
    toks = tokenize(text)
    k = next(n for n, t in enumerate(toks) if t.is_word("DIMENSION"))
    name, _ = read_name(toks, k + 1)
    ctx.applied("ddl.admin")
    ctx.note(
        f"CREATE DIMENSION {name.last}: declares hierarchies for Oracle's query rewrite only; no query result"
        " depends on it and PostgreSQL has no such object"
    )
    return f"-- CREATE DIMENSION {comment_text(name.sql)}: nothing to create in PostgreSQL (query rewrite metadata)"


def _directory(text: str, toks: list[Token], ctx: ConversionContext) -> str:
    """CREATE [OR REPLACE] DIRECTORY d AS 'path' / DROP DIRECTORY d: the file gate's mapping of an
    Oracle directory name (upper case unless quoted, as UTL_FILE and BFILENAME name it) to a server
    folder (`harness/engines/file_gate.sql`: confined to a scratch folder during verification, and
    only a role that may write server files maps a new name elsewhere)."""
    k = next(n for n, t in enumerate(toks) if t.is_word("DIRECTORY"))
    name_tok = toks[k + 1]
    name = name_tok.text[1:-1].replace('""', '"') if name_tok.kind == QIDENT else name_tok.text.upper()
    if not ctx.enabled("ddl.directory"):
        return unconverted(ctx, "DIRECTORY", "rule ddl.directory is disabled", text)
    ctx.applied("ddl.directory")
    if toks[0].is_word("DROP"):
        if len(toks) != k + 2:
            raise LexError(f"DROP DIRECTORY {name} {' '.join(t.text for t in toks[k + 2 :])} is not converted")
        return f"DELETE FROM oracompat_fs.directory WHERE name = {pg_string(name)}"
    path = string_value(toks[k + 3]) if len(toks) == k + 4 and toks[k + 2].is_word("AS", "IS") else None
    if path is None:
        raise LexError("CREATE DIRECTORY: expected AS 'path'")
    replace = "true" if toks[1].is_word("OR") else "false"
    return f"SELECT oracompat_fs.create_directory({pg_string(name)}, {pg_string(path)}, {replace})"


def _drop(toks: list[Token], ctx: ConversionContext, top_level: bool) -> str:
    kind = toks[1].text.upper()
    i = 2
    if kind == "MATERIALIZED":
        kind, i = "MATERIALIZED VIEW", 3
    if kind in ("PUBLIC", "SYNONYM"):
        return _drop_synonym(toks, ctx, top_level)
    if kind == "PACKAGE" and toks[2].is_word("BODY"):
        raise LexError("DROP PACKAGE BODY: the package's routines would go and its specification stay; not converted")
    name, i = read_name(toks, i)
    tail = [t.text.upper() for t in toks[i:]]
    exists = " IF EXISTS" if top_level else ""
    cascade = ""
    if kind == "TABLE" and tail[:2] == ["CASCADE", "CONSTRAINTS"]:
        # Oracle drops the referencing foreign keys; PostgreSQL's CASCADE also drops dependent views
        # (Oracle keeps them, invalid)
        cascade = " CASCADE"
        ctx.note(f"DROP TABLE {name.last} CASCADE CONSTRAINTS → CASCADE (dependent views are dropped too)")
    elif kind == "TYPE" and "FORCE" in tail:
        cascade = " CASCADE"
        ctx.note(f"DROP TYPE {name.last} FORCE → CASCADE: columns of the type are dropped (Oracle marks them unusable)")
    unknown = [
        w for w in tail if w not in ("CASCADE", "CONSTRAINTS", "PURGE", "FORCE", "VALIDATE", "PRESERVE", "TABLE")
    ]
    if unknown:
        raise LexError(f"DROP {kind} ... {' '.join(unknown)} is not converted")
    ctx.applied("ddl.admin")
    if top_level:
        ctx.note(f"DROP {kind} {name.last}: IF EXISTS added (SQL*Plus reports a failed DROP and goes on)")
    if kind == "TRIGGER":
        call = f"SELECT oracompat.drop_trigger({_owner(name)}, {pg_string(name.last)})"
        if top_level:
            return f"DO $$ BEGIN PERFORM oracompat.drop_trigger({_owner(name)}, {pg_string(name.last)});\nEXCEPTION WHEN undefined_object THEN NULL; END $$;"
        return call + ";"
    if kind == "PACKAGE":
        return f"DROP SCHEMA{exists} {quote_ident(name.last)} CASCADE;"  # a package is a schema of its members
    if kind in ("PROCEDURE", "FUNCTION"):
        return f"DROP ROUTINE{exists} {name.sql};"
    if kind == "TYPE":
        entry = ctx.catalog.lookup(*name)
        info = entry.declared_type if entry is not None else None
        domain = isinstance(info, CollectionType) or isinstance(info, ObjectType) and info.supertype is not None
        return f"DROP {'DOMAIN' if domain else 'TYPE'}{exists} {name.sql}{cascade};"
    return f"DROP {kind}{exists} {name.sql}{cascade};"


def _drop_synonym(toks: list[Token], ctx: ConversionContext, top_level: bool) -> str:
    """DROP [PUBLIC] SYNONYM s [FORCE]: the view a table's or view's synonym became
    (`objects.convert_synonym`); a public one lives in schema public."""
    public = toks[1].is_word("PUBLIC")
    name, i = read_name(toks, 3 if public else 2)
    if any(not t.is_word("FORCE") for t in toks[i:]):
        raise LexError(f"DROP SYNONYM ... {' '.join(t.text for t in toks[i:])} is not converted")
    if public and len(name) == 1:
        name = Name(("public", *name))
    ctx.applied("ddl.admin")
    ctx.note(f"DROP SYNONYM {name.last}: the view the synonym became is dropped")
    return f"DROP VIEW{' IF EXISTS' if top_level else ''} {name.sql};"
