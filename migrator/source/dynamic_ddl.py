"""DDL an install block runs through EXECUTE IMMEDIATE with a literal statement: the objects it
creates exist for the units after it (the dependency graph orders their users after the block,
the catalog reads their columns), as they do when Oracle runs the script.

Only literal statements are read (`EXECUTE IMMEDIATE 'CREATE TABLE t (...)'`); text built at run
time names nothing the reader can know.
"""

from __future__ import annotations

from dataclasses import dataclass

from migrator.source.lexer import LexError, string_value, tokenize
from migrator.source.statement_kind import read_head
from migrator.source.units import Unit, UnitKind

# What a dynamic CREATE can define that other units refer to by name.
CREATED_KINDS = frozenset({UnitKind.TABLE, UnitKind.VIEW, UnitKind.SEQUENCE, UnitKind.TYPE, UnitKind.SYNONYM})


@dataclass(frozen=True)
class DynamicCreate:
    kind: UnitKind
    schema: str  # the block's schema when the statement does not qualify the name
    name: str
    text: str  # the statement, as the literal holds it


def dynamic_creates(unit: Unit) -> list[DynamicCreate]:
    """The objects `unit` (an anonymous block) creates with literal EXECUTE IMMEDIATE statements."""
    if unit.kind is not UnitKind.ANONYMOUS_BLOCK or "IMMEDIATE" not in unit.text.upper():
        return []
    try:
        toks = tokenize(unit.text)
    except LexError:
        return []
    found = []
    for k, tok in enumerate(toks[:-2]):
        if not (tok.is_word("EXECUTE") and toks[k + 1].is_word("IMMEDIATE")):
            continue
        value = string_value(toks[k + 2])
        if value is None or not value.lstrip()[:6].upper() == "CREATE":
            continue
        head = read_head(value, 0)
        if head.kind in CREATED_KINDS and head.name:
            found.append(DynamicCreate(head.kind, head.schema or unit.schema, head.name, value.strip().rstrip(";")))
    return found
