"""The Emitter: one PL/SQL unit's conversion state, and nothing else but its entry points.

The code that emits lives in module-level functions, one module per concern, each taking the
Emitter explicitly as `em`: expressions (`exprs`, `values`), collections (`emit_collections`),
assignment targets (`targets`), declarations (`emit_decl`), control flow (`emit_stmt`), exceptions
(`emit_exceptions`), embedded SQL and cursors (`emit_sql`), bulk binds (`emit_bulk`), calls
(`emit_call`), dynamic SQL (`emit_dyn`), nested subprograms (`emit_nested`), packages
(`emit_package`), triggers (`emit_trigger`), autonomous transactions (`emit_autonomous`) and
Oracle-supplied packages (`emit_supplied`). One concern reaches another through a module reference
(`from migrator.convert.plsql import emit_stmt as stmt_`, then `stmt_.stmts(em, ...)`): the name
says where a function lives, the imports survive the modules' import cycle (a module is looked up
when called, not when imported), and mypy checks every call, which it could not do through a
mixin's `self`. Each statement class has its emitter registered with `statements.emits`. What a
name is and what type it has is not the emitter's: `em.resolver` (`resolver.Resolver`) answers
it, and hands back the DDL a type needs, which the emitter puts before the unit (`emit_decl.take`).

State lives in two places. The unit's lasts for the whole unit and is this class's attributes;
the routine's lives in `em.frame` (`state.RoutineFrame`), which `routine_frame` replaces for each
routine and restores afterwards, and `within` changes for the statements nested in a handler or
a FORALL.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from migrator.convert.context import Catalog, ConversionContext, unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.naming import Owner
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.resolver import Resolver
from migrator.convert.plsql.state import RoutineFrame
from migrator.source.lexer import LineIndex, Token

_ATTRS = frozenset({"FOUND", "NOTFOUND", "ROWCOUNT"})


class Emitter:
    def __init__(self, ctx: ConversionContext, schema: str, text: str, tokens: list[Token], pkg: str | None = None):
        self.ctx: ConversionContext = ctx
        self.catalog: Catalog = ctx.catalog
        self.schema = schema
        self.resolver = Resolver(ctx, schema, pkg)  # names in scope and their types (`resolver.py`)
        self.lines = LineIndex(text)
        self.pre: list[str] = []  # statements emitted before the unit (record types, lifted routines: `take`)
        self.ph_counter = 0  # placeholders in expressions (exprs.placeholder)
        self.temp_counter = 0  # temporaries (targets.temp): numbered across the unit, never reused
        self.created_views: set[str] = set()  # cursor row-type views already created
        # Each scan below walks every token of the unit, for words most units never spell: a word
        # the text does not hold (in any case: upper() maps character by character) has no token,
        # so the walk is skipped then (it was a fifth of the catalog's signature pass).
        spelled = text.upper()
        # cursors whose %FOUND/%NOTFOUND/%ROWCOUNT are read; SQL%ROWCOUNT and friends are read;
        # DBMS_OUTPUT.PUT is used (line buffering)
        self.tracked_cursors: set[str]
        self.uses_sql_rowcount: bool
        self.uses_put: bool
        self.tracked_cursors, self.uses_sql_rowcount, self.uses_put = (
            prescan(tokens)
            if "FOUND" in spelled or "ROWCOUNT" in spelled or "DBMS_OUTPUT" in spelled
            else (set(), False, False)
        )
        # nested tables on which DELETE(i) is called
        self.sparse_names: set[str] = sparse_scan(tokens) if "DELETE" in spelled else set()
        # SQL%BULK_ROWCOUNT is read: FORALL records each iteration's row count
        self.bulk_rowcount = "BULK_ROWCOUNT" in spelled and any(t.upper == "BULK_ROWCOUNT" for t in tokens)
        self.frame = RoutineFrame((schema,))  # the routine being emitted; first the unit's own level
        self.tokens = tokens
        self._argument_names: set[str] | None = None

    @property
    def argument_names(self) -> set[str]:
        """Names passed as a whole argument of some call (`p(x)`, `f(a, x)`, `p(n => x)`): a
        variable an OUT parameter writes must have the parameter's type exactly (PostgreSQL's CALL
        cannot write through a conversion). Scanned on first use."""
        if self._argument_names is None:
            self._argument_names = argument_scan(self.tokens)
        return self._argument_names

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


# ---- what the unit uses ----------------------------------------------------------------------------
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


def argument_scan(tokens: list[Token]) -> set[str]:
    """Names that stand alone between '(' / ',' / '=>' and ',' / ')'."""
    code = [t for t in tokens if t.kind not in ("ws", "line_comment", "block_comment")]
    out = set()
    for k in range(1, len(code) - 1):
        if (
            code[k].kind in ("word", "qident")
            and code[k - 1].text in ("(", ",", "=>")
            and code[k + 1].text in (",", ")")
        ):
            out.add(norm_name(code[k]))
    return out


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
