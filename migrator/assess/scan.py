"""Read and convert a schema export in memory, exactly as `migrate` does, writing nothing.

The assessment must say what `migrate` will report, so it takes the same path: the same reader,
dependency order, catalog, rule set and converter (in the same worker processes for a large
export). Only files, deployment and verification are left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from migrator.batch.parallel import convert_in_order, default_workers
from migrator.convert.context import Conversion
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.dependencies import analyze_dependencies
from migrator.source.reader import read_schema_dir
from migrator.source.units import SourceSet, Unit


@dataclass(frozen=True)
class Converted:
    unit: Unit
    conversion: Conversion


def convert_schema(
    src: Path, schema: str | None = None, disabled: frozenset[str] = frozenset()
) -> tuple[SourceSet, list[Converted]]:
    """The source set and every unit's conversion, in deployment order. Raises SourceError for
    unreadable input, as `migrate` does."""
    source = read_schema_dir(src, schema)
    graph = analyze_dependencies(source)
    ctx = prepare_context(source, disabled)
    by_id = source.by_id()
    todo = [by_id[uid] for uid in graph.order]
    results = convert_in_order(todo, ctx, lambda unit, c: convert_unit(unit, c), default_workers(len(todo)))
    return source, [Converted(unit, conversion) for unit, conversion, _ in results]
