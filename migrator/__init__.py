"""Oracle → PostgreSQL migration agent: read, split, convert, verify.

The library's public API, as the CLI uses it (`migrator.cli` is a thin layer over these):

    from migrator import MigrateOptions, migrate, read_schema_dir, prepare_context, convert_unit

    report = migrate(Path("export/"), Path("out/"), MigrateOptions(verify=True))   # the whole run
    source = read_schema_dir("export/")                  # units, split and accounted for
    ctx = prepare_context(source)                        # the schema model and the rules
    conversion = convert_unit(source.units[0], ctx)      # one unit's PostgreSQL text and log

Names are imported on first use (PEP 562), so `import migrator` and `migrator --help` stay light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "migrate": "migrator.batch.pipeline",
    "MigrateOptions": "migrator.batch.pipeline",
    "read_schema_dir": "migrator.source.reader",
    "SourceSet": "migrator.source.units",
    "Unit": "migrator.source.units",
    "UnitKind": "migrator.source.units",
    "prepare_context": "migrator.convert.dispatch",
    "convert_unit": "migrator.convert.dispatch",
    "ConversionContext": "migrator.convert.context",
    "Conversion": "migrator.convert.context",
    "MigratorError": "migrator.errors",
}
__all__ = [
    "Conversion",
    "ConversionContext",
    "MigrateOptions",
    "MigratorError",
    "SourceSet",
    "Unit",
    "UnitKind",
    "convert_unit",
    "migrate",
    "prepare_context",
    "read_schema_dir",
]

if TYPE_CHECKING:
    from migrator.batch.pipeline import MigrateOptions, migrate
    from migrator.convert.context import Conversion, ConversionContext
    from migrator.convert.dispatch import convert_unit, prepare_context
    from migrator.errors import MigratorError
    from migrator.source.reader import read_schema_dir
    from migrator.source.units import SourceSet, Unit, UnitKind


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'migrator' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
