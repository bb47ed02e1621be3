"""The emitter's state: the unit's (`EmitterState`, read by every mixin of `emitter.Emitter`) and
the routine's (`RoutineFrame`), kept apart.

A routine is a standalone function or procedure, a package member or initialisation section, an
object type method, a trigger body, an anonymous block, or a nested subprogram lifted to the top.
`Emitter.routine_frame` gives each one a fresh `RoutineFrame` and puts the enclosing one back when
it is done, so no per-routine field can leak from one routine into the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from migrator.convert.context import Catalog, ConversionContext
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.naming import Owner
from migrator.convert.plsql.resolver import Resolver
from migrator.source.lexer import LineIndex


@dataclass
class RoutineFrame:
    owner: Owner  # helper objects of this routine are named after it (naming.derived)
    kind: str = "BLOCK"  # FUNCTION | PROCEDURE | TRIGGER | BLOCK: says where COMMIT may stand
    trigger: A.Trigger | None = None  # the trigger whose body this is (:NEW/:OLD, INSERTING ...)
    # DECLARE lines the emitter adds to the routine's top block (temporaries, UPDATING flags ...)
    extra_decls: list[str] = field(default_factory=list)
    updating_cols: list[str] = field(default_factory=list)  # columns tested by UPDATING('COL')
    # savepoints that open a block with handlers: the block's own subtransaction does their work
    block_savepoints: set[str] = field(default_factory=set)
    autonomous: bool = False  # PRAGMA AUTONOMOUS_TRANSACTION in the declarations
    pipelined: bool = False  # a PIPELINED function: RETURN ends the set
    returns_self: bool = False  # an object type's CONSTRUCTOR: RETURN gives back SELF
    # Where the statement being emitted stands (set with Emitter.within, undone afterwards):
    in_handler: bool = False  # in an exception handler (SQLCODE, SQLERRM, ROLLBACK)
    handler_diag: dict | None = None  # that handler's diagnostics for SQLERRM (emit_exceptions.diag_needs)
    handler_error: dict | None = None  # that handler's error for FORMAT_ERROR_* (emit_supplied)
    in_forall: bool = False  # the statement of a FORALL (SQL%ROWCOUNT adds up)
    bulk_deferred: bool = False  # a SAVE EXCEPTIONS FORALL whose block raises ORA-24381 after it (block_lines)
    goto_exits: dict[str, str] = field(default_factory=dict)  # GOTO target -> the block its EXIT leaves


class EmitterState:
    """The unit's state, declared once for every mixin (set in `Emitter.__init__`)."""

    ctx: ConversionContext
    catalog: Catalog
    schema: str
    pkg: str | None  # the package being converted (the resolver's: `Emitter.pkg`)
    resolver: Resolver  # names in scope and their types (`resolver.py`)
    lines: LineIndex
    pre: list[str]  # statements emitted before the unit (record types, lifted routines: `take`)
    ph_counter: int  # placeholders in expressions (exprs.placeholder)
    temp_counter: int  # temporaries (targets.temp): numbered across the unit, never reused
    created_views: set[str]  # cursor row-type views already created
    tracked_cursors: set[str]  # cursors whose %FOUND/%NOTFOUND/%ROWCOUNT are read
    uses_sql_rowcount: bool  # SQL%ROWCOUNT and friends are read
    uses_put: bool  # DBMS_OUTPUT.PUT is used (line buffering)
    sparse_names: set[str]  # nested tables on which DELETE(i) is called
    bulk_rowcount: bool  # SQL%BULK_ROWCOUNT is read: FORALL keeps every iteration's row count
    frame: RoutineFrame  # the routine being emitted
