"""Support for the hostile-name tests: converting a schema folder through the real reader and
converters, and reading names back out of the output with PostgreSQL's own parser (pglast):
which objects a statement creates, and which names the code inside refers to."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pglast

from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.reader import read_schema_dir
from migrator.source.units import Severity, Unit


def convert_folder(folder: Path, files: dict[str, str]) -> list[tuple[Unit, str]]:
    """Write `files` into the schema folder `folder` (its name is the schema), read it and convert
    every unit as the pipeline does; every unit must convert without a marker or an error."""
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    source = read_schema_dir(folder)
    assert [str(i) for i in source.issues if i.severity is Severity.ERROR] == []
    ctx = prepare_context(source)
    out = []
    for unit in source.units:
        conversion = convert_unit(unit, ctx)
        assert conversion.status == "converted", (unit.id, conversion.error, conversion.unconverted)
        out.append((unit, conversion.output))
    return out


@dataclass
class Refs:
    """Names used inside statements and PL/pgSQL bodies."""

    relations: set[tuple[str, ...]] = field(default_factory=set)  # (schema?, relname)
    functions: set[tuple[str, ...]] = field(default_factory=set)  # called function names
    columns: set[str] = field(default_factory=set)  # every ColumnRef field and record field
    strings: set[str] = field(default_factory=set)  # string constants


def statements(sql: str) -> list[tuple[str, dict]]:
    """(text, tree as a dict) of each statement; locations are character offsets."""
    out = []
    for raw in pglast.parse_sql(sql):
        start = raw.stmt_location
        text = sql[start : start + raw.stmt_len] if raw.stmt_len else sql[start:]
        out.append((text, raw.stmt(skip_none=True)))
    return out


def names(parts) -> tuple[str, ...]:
    return tuple(p["sval"] for p in parts)


def collect(node, refs: Refs) -> Refs:
    """Walk a parse tree (dicts/tuples from pglast) gathering the names it refers to."""
    if isinstance(node, dict):
        tag = node.get("@")
        if tag == "RangeVar":
            refs.relations.add(tuple(p for p in (node.get("schemaname"), node["relname"]) if p))
        elif tag == "FuncCall":
            refs.functions.add(names(node["funcname"]))
        elif tag == "ColumnRef":
            refs.columns.update(f["sval"] for f in node["fields"] if f.get("@") == "String")
        elif tag == "A_Const" and node.get("val", {}).get("@") == "String":
            refs.strings.add(node["val"]["sval"])
        for value in node.values():
            collect(value, refs)
    elif isinstance(node, (list, tuple)):
        for item in node:
            collect(item, refs)
    return refs


def body_refs(function_sql: str) -> Refs:
    """Names used by a CREATE FUNCTION/PROCEDURE ... LANGUAGE plpgsql body: parses the body with
    PostgreSQL's PL/pgSQL parser, then every SQL statement and expression in it."""
    refs = Refs()
    _body(pglast.parse_plpgsql(function_sql), refs)
    return refs


def _body(node, refs: Refs) -> None:
    if isinstance(node, dict):
        if "PLpgSQL_expr" in node:
            expr = node["PLpgSQL_expr"]
            _sql(expr["query"], expr.get("parseMode", 0), refs)
        if "PLpgSQL_recfield" in node:
            refs.columns.add(node["PLpgSQL_recfield"]["fieldname"])
        for value in node.values():
            _body(value, refs)
    elif isinstance(node, list):
        for item in node:
            _body(item, refs)


def _sql(query: str, mode: int, refs: Refs) -> None:
    if mode == 0:  # a whole SQL statement
        collect([s for _, s in statements(query)], refs)
        return
    if mode >= 3:  # an assignment "target := expression": the target is a datum (collected apart)
        query = query[_assignment(query) + 2 :]
    collect([s for _, s in statements("SELECT " + query)], refs)


def _assignment(text: str) -> int:
    """Offset of the ':=' of an assignment, skipping quoted identifiers and strings."""
    i, quote = 0, None
    while i < len(text):
        c = text[i]
        if quote and c == quote and text[i + 1 : i + 2] == quote:
            i += 2  # a doubled quote inside: still quoted
            continue
        if quote and c == quote:
            quote = None
        elif not quote and c in "\"'":
            quote = c
        elif not quote and text.startswith(":=", i):
            return i
        i += 1
    raise ValueError(f"no assignment in {text!r}")
