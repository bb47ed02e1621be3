"""PL/SQL → PL/pgSQL: our recursive-descent parser, over the tokens of the one Oracle lexer
(`migrator.source.lexer`), builds a tree of blocks, declarations and statements; SQL inside goes through `migrator.convert.sql.convert` (sqlglot); rewriting
happens on the tree. What cannot be converted is recorded with `ctx.unconverted` and emitted with
`unconverted_marker`, so deployment fails loudly.

Rule ids: plsql.function, plsql.procedure, plsql.package, plsql.trigger, plsql.exceptions,
plsql.raise_application_error, plsql.dbms_output, plsql.collections, plsql.autonomous,
plsql.empty_string_params (string inputs: '' → NULL on entry, as Oracle never sees '').
"""

from __future__ import annotations

from migrator.convert.context import ConversionContext
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import conditional

# Each module holding statement emitters registers them (statements.emits) when imported: all of
# them are imported here, so the registry is complete before any unit is converted. Modules, not
# their functions: `from .emit_package import emit_package` would make the package's attribute
# `emit_package` that function, for every later `from migrator.convert.plsql import emit_package`.
from migrator.convert.plsql import emit_bulk as emit_bulk
from migrator.convert.plsql import emit_call as emit_call
from migrator.convert.plsql import emit_dyn as emit_dyn
from migrator.convert.plsql import emit_exceptions as emit_exceptions
from migrator.convert.plsql import emit_package as package_
from migrator.convert.plsql import emit_sql as emit_sql
from migrator.convert.plsql import emit_stmt as emit_stmt
from migrator.convert.plsql import emit_trigger as trigger_
from migrator.convert.plsql.emit_unit import emit_anonymous, emit_routine_unit, emit_type_body
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.parse_unit import TypeBody
from migrator.convert.plsql.prepare import parsed
from migrator.convert.plsql.prepare import prepare as prepare_catalog
from migrator.convert.plsql.prepare_sigs import prepare_signatures
from migrator.source.units import Unit

__all__ = ["prepare", "convert_unit"]


def prepare(units: list[Unit], ctx: ConversionContext) -> None:
    """The whole-schema passes into `ctx.catalog`: what each unit declares, then every routine's
    converted signature (which needs the declarations of every package and table first)."""
    prepare_catalog(units, ctx)
    prepare_signatures(units, ctx)


def convert_unit(unit: Unit, ctx: ConversionContext) -> str:
    """PostgreSQL statements (each ending with ';') for one PL/SQL unit."""
    if conditional.has_directives(unit.text) and not ctx.enabled("plsql.conditional_compilation"):
        return conditional.refused(unit.text, ctx)
    pu = parsed(unit, ctx)  # a ParseError propagates: the batch reports it for this unit
    tree = pu.tree
    if pu.parser.text != unit.text:  # conditional compilation was resolved
        conditional.record(ctx)
    em = Emitter(ctx, unit.schema, pu.parser.text, pu.parser.toks)
    if isinstance(tree, A.Routine):
        out = emit_routine_unit(em, tree)
    elif isinstance(tree, A.Package):
        out = package_.emit_package(em, tree, unit.schema)
    elif isinstance(tree, A.Trigger):
        out = trigger_.emit_trigger(em, tree, unit.schema)
    elif isinstance(tree, A.Block):
        out = emit_anonymous(em, tree)
    elif isinstance(tree, TypeBody):
        out = emit_type_body(em, tree)
    else:  # pragma: no cover - parse_unit returns only the kinds above
        raise TypeError(f"unexpected tree {type(tree).__name__}")
    return out.rstrip() + "\n"
