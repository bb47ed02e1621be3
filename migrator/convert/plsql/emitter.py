"""The Emitter: one PL/SQL unit's conversion state, the routine frames, and statement dispatch.

The Emitter is composed of one mixin per concern, each in the module named after it: expressions
(`exprs`, `values`), collections (`emit_collections`), assignment targets (`targets`), declarations (`emit_decl`), control flow
(`emit_stmt`), exceptions (`emit_exceptions`), embedded SQL and cursors (`emit_sql`), bulk binds
(`emit_bulk`), calls (`emit_call`), dynamic SQL (`emit_dyn`), nested subprograms
(`emit_nested`), packages (`emit_package`), triggers (`emit_trigger`), autonomous transactions
(`emit_autonomous`) and Oracle-supplied packages (`emit_supplied`). `STATEMENTS` maps each statement class of the tree to the method that emits
it, so the emitter of a construct is found by its class name. What a name is and what type it
has is not the emitter's: `self.resolver` (`resolver.Resolver`) answers it, and hands back the DDL
a type needs, which the emitter puts before the unit (`emit_decl.take`).

State lives in two places (`state.py`). The unit's (`EmitterState`) lasts for the whole unit; the
routine's lives in `self.frame` (`state.RoutineFrame`), which `routine_frame` replaces for each
routine and restores afterwards, and `within` changes for the statements nested in a handler or
a FORALL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from migrator.convert.context import ConversionContext, unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.emit_autonomous import AutonomousMixin
from migrator.convert.plsql.emit_bulk import BulkMixin
from migrator.convert.plsql.emit_call import CallMixin
from migrator.convert.plsql.emit_collections import CollectionMixin
from migrator.convert.plsql.emit_decl import DeclMixin
from migrator.convert.plsql.emit_dyn import DynMixin
from migrator.convert.plsql.emit_exceptions import ExceptionMixin
from migrator.convert.plsql.emit_nested import NestedMixin
from migrator.convert.plsql.emit_package import PackageMixin
from migrator.convert.plsql.emit_sql import SqlMixin
from migrator.convert.plsql.emit_stmt import StmtMixin
from migrator.convert.plsql.emit_supplied import SuppliedMixin
from migrator.convert.plsql.emit_trigger import TriggerMixin
from migrator.convert.plsql.exprs import ExprMixin
from migrator.convert.plsql.naming import Owner
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.resolver import Resolver
from migrator.convert.plsql.state import RoutineFrame
from migrator.convert.plsql.symbols import Scope
from migrator.convert.plsql.targets import TargetMixin
from migrator.convert.plsql.values import ValueMixin
from migrator.source.lexer import LineIndex, Token

_ATTRS = {"FOUND", "NOTFOUND", "ROWCOUNT"}


class Emitter(
    ExprMixin,
    ValueMixin,
    CollectionMixin,
    TargetMixin,
    DeclMixin,
    StmtMixin,
    ExceptionMixin,
    SqlMixin,
    BulkMixin,
    CallMixin,
    DynMixin,
    NestedMixin,
    PackageMixin,
    TriggerMixin,
    AutonomousMixin,
    SuppliedMixin,
):
    def __init__(self, ctx: ConversionContext, schema: str, text: str, tokens: list[Token], pkg: str | None = None):
        self.ctx = ctx
        self.catalog = ctx.catalog
        self.schema = schema
        self.resolver = Resolver(ctx, schema, pkg)
        self.lines = LineIndex(text)
        self.pre = []
        self.ph_counter = 0
        self.temp_counter = 0
        self.created_views = set()
        # Each scan below walks every token of the unit, for words most units never spell: a word
        # the text does not hold (in any case: upper() maps character by character) has no token,
        # so the walk is skipped then (it was a fifth of the catalog's signature pass).
        spelled = text.upper()
        self.tracked_cursors, self.uses_sql_rowcount, self.uses_put = (
            self.prescan(tokens)
            if "FOUND" in spelled or "ROWCOUNT" in spelled or "DBMS_OUTPUT" in spelled
            else (set(), False, False)
        )
        self.sparse_names = self.sparse_scan(tokens) if "DELETE" in spelled else set()
        # FORALL records each iteration's row count
        self.bulk_rowcount = "BULK_ROWCOUNT" in spelled and any(t.upper == "BULK_ROWCOUNT" for t in tokens)
        self.frame = RoutineFrame((schema,))  # the unit's own level, outside any routine

    @property
    def pkg(self) -> str | None:
        """The package being converted: the resolver's, whose unqualified names are its own."""
        return self.resolver.pkg

    @pkg.setter
    def pkg(self, value: str | None) -> None:
        self.resolver.pkg = value

    # ---- routine frames ----------------------------------------------------------------------------
    @contextmanager
    def routine_frame(
        self, owner: Owner, kind: str = "BLOCK", trigger: A.Trigger | None = None
    ) -> Iterator[RoutineFrame]:
        """A fresh frame for the routine emitted inside the `with`; the enclosing one comes back after."""
        outer, self.frame = self.frame, RoutineFrame(owner, kind, trigger)
        try:
            yield self.frame
        finally:
            self.frame = outer

    @contextmanager
    def within(self, **where: object) -> Iterator[None]:
        """Set where the nested statements stand (in_handler, handler_diag, in_forall), then undo it."""
        saved = {name: getattr(self.frame, name) for name in where}
        for name, value in where.items():
            setattr(self.frame, name, value)
        try:
            yield
        finally:
            for name, value in saved.items():
                setattr(self.frame, name, value)

    # ---- statements ----------------------------------------------------------------------------------
    def stmt(self, st: A.Stmt, scope: Scope, ind: str) -> list[str]:
        return STATEMENTS[type(st)](self, st, scope, ind)

    # ---- what the unit uses ------------------------------------------------------------------------
    @staticmethod
    def prescan(tokens: list[Token]) -> tuple[set[str], bool, bool]:
        """Which cursors' %FOUND/%NOTFOUND/%ROWCOUNT are read (FETCH must then record them),
        whether SQL% attributes are used, and whether DBMS_OUTPUT.PUT is (line buffering)."""
        cursors, sql, put = set(), False, False
        for k in range(len(tokens) - 2):
            t = tokens[k]
            if tokens[k + 1].text == "%" and tokens[k + 2].upper in _ATTRS and t.kind in ("word", "qident"):
                if t.upper == "SQL":
                    sql = True
                else:
                    cursors.add(norm_name(t))
            elif t.upper == "DBMS_OUTPUT" and tokens[k + 2].upper == "PUT" and tokens[k + 1].text == ".":
                put = True
        return cursors, sql, put

    @staticmethod
    def sparse_scan(tokens: list[Token]) -> set[str]:
        """Collections on which DELETE(i) is called: as nested tables they become sparse."""
        out = set()
        for k in range(len(tokens) - 4):
            if (
                tokens[k + 1].text == "."
                and tokens[k + 2].upper == "DELETE"
                and tokens[k + 3].text == "("
                and tokens[k + 4].text != ")"
                and tokens[k].kind in ("word", "qident")
            ):
                out.add(norm_name(tokens[k]))
        return out

    # ---- what cannot be converted ------------------------------------------------------------------
    def unconverted(self, construct: str, message: str, where: int | Token | None = None) -> None:
        line = (
            where
            if isinstance(where, int)
            else (self.lines.line(where.start) if where is not None and where.end else None)
        )
        self.ctx.unconverted(construct, message, line)

    def rule_off(
        self, rule_id: str, construct: str, original: str = "", where: int | Token | None = None
    ) -> str | None:
        """None while `rule_id` is on; switched off, the construct is recorded as unconverted and
        this returns its marker (PostgreSQL refuses it) to emit in the construct's place."""
        if self.ctx.enabled(rule_id):
            return None
        self.unconverted(construct, f"rule {rule_id} is disabled", where)
        return unconverted_marker(construct, original)


# Statement class → the method that emits it (grep the class name to find a construct's emitter).
STATEMENTS: dict[type, Callable[..., list[str]]] = {
    A.Null: Emitter.st_null,
    A.Assign: Emitter.st_assign,
    A.If: Emitter.st_if,
    A.Case: Emitter.st_case,
    A.Loop: Emitter.st_loop,
    A.While: Emitter.st_while,
    A.ForRange: Emitter.st_forrange,
    A.ForCursor: Emitter.st_forcursor,
    A.Exit: Emitter.st_exit,
    A.Goto: Emitter.st_goto,
    A.BlockStmt: Emitter.st_blockstmt,
    A.Unsupported: Emitter.st_unsupported,
    A.PipeRow: Emitter.st_piperow,
    A.Return: Emitter.st_return,
    A.Raise: Emitter.st_raise,  # emit_exceptions
    A.Sql: Emitter.st_sql,  # emit_sql
    A.Open: Emitter.st_open,
    A.Fetch: Emitter.st_fetch,  # BULK COLLECT: emit_bulk
    A.Close: Emitter.st_close,
    A.Forall: Emitter.st_forall,  # emit_bulk
    A.ExecImmediate: Emitter.st_execimmediate,  # emit_dyn
    A.Call: Emitter.st_call,  # emit_call
}
