"""The routine's part of the emitter's state (`RoutineFrame`), kept apart from the unit's (the
attributes of `emitter.Emitter`).

A routine is a standalone function or procedure, a package member or initialisation section, an
object type method, a trigger body, an anonymous block, or a nested subprogram lifted to the top.
`Emitter.routine_frame` gives each one a fresh `RoutineFrame` and puts the enclosing one back when
it is done, so no per-routine field can leak from one routine into the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from migrator.convert.plsql import ast as A
from migrator.convert.plsql.naming import Owner


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
    goto_exits: dict[str, str] = field(default_factory=dict)
    # a function with OUT parameters: its result column, which RETURN x sets (emit_outfunc)
    out_result: str | None = None
    # statements the statement being emitted needs before it (calls of functions with OUT
    # parameters, emit_outfunc); None where no statement can be put before the expression
    hoisted: list[str] | None = None  # GOTO target -> the block its EXIT leaves
