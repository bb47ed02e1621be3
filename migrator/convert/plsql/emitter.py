"""The Emitter: per-unit conversion state plus name resolution across units (packages, triggers)."""

from __future__ import annotations

import hashlib
import re

from harness.quoting import quote_ident
from migrator.convert.context import ConversionContext, unconverted_marker
from migrator.convert.ddl.tokens import pg_string
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.emit_call import CallMixin
from migrator.convert.plsql.emit_decl import DeclMixin
from migrator.convert.plsql.emit_dyn import DynMixin
from migrator.convert.plsql.emit_nested import NestedMixin
from migrator.convert.plsql.emit_sql import SqlMixin
from migrator.convert.plsql.emit_stmt import StmtMixin
from migrator.convert.plsql.exprs import ExprMixin
from migrator.convert.plsql.naming import Owner, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import Scope, Sym
from migrator.convert.plsql.values import ValueMixin
from migrator.source.identifiers import fold
from migrator.source.lexer import LineIndex, Token, string_value

_ATTRS = {"FOUND", "NOTFOUND", "ROWCOUNT"}


class Emitter(ExprMixin, ValueMixin, DeclMixin, StmtMixin, SqlMixin, CallMixin, DynMixin, NestedMixin):
    def __init__(self, ctx: ConversionContext, schema: str, text: str, tokens: list[Token], pkg: str | None = None):
        self.ctx = ctx
        self.catalog = ctx.catalog
        self.schema = schema
        self.pkg = pkg
        self.lines = LineIndex(text)
        self.pre: list[str] = []  # statements emitted before the unit (record types, lifted routines)
        self.ph_counter = 0
        self.temp_counter = 0
        self.extra_decls: list[str] = []
        self.in_handler = False
        self.handler_diag: dict | None = None  # see StmtEmitter.diag_needs
        self.in_forall = False
        self.created_views: set[str] = set()
        self.trigger: A.Trigger | None = None
        self.updating_cols: list[str] = []  # columns tested by UPDATING('COL')
        self.routine_kind = "BLOCK"
        self.pipelined = False
        self.autonomous = False
        self.owner: Owner = (schema,)
        self._pkg_scopes: dict[str, Scope] = {}
        self.suppress_pre = False
        self.block_savepoints: set[str] = set()
        self.tracked_cursors, self.uses_sql_rowcount, self.uses_put = self.prescan(tokens)
        self.sparse_names = self.sparse_scan(tokens)

    @staticmethod
    def prescan(tokens: list[Token]):
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

    def unconverted(self, construct: str, message: str, where=None) -> None:
        line = (
            where
            if isinstance(where, int)
            else (self.lines.line(where.start) if where is not None and where.end else None)
        )
        self.ctx.unconverted(construct, message, line)

    def rule_off(self, rule_id: str, construct: str, original: str = "", where=None) -> str | None:
        """None while `rule_id` is on; switched off, the construct is recorded as unconverted and
        this returns its marker (PostgreSQL refuses it) to emit in the construct's place."""
        if self.ctx.enabled(rule_id):
            return None
        self.unconverted(construct, f"rule {rule_id} is disabled", where)
        return unconverted_marker(construct, original)

    # ---- packages --------------------------------------------------------------------------
    def lookup(self, parts):
        """Catalog entry for a name (plain parts) as Oracle resolves it: unqualified names in the
        unit owner's schema first (which may differ from the run's default schema), then the
        default."""
        parts = tuple(parts)
        if len(parts) == 1:
            entry = self.catalog.lookup(self.schema, parts[0])
            if entry is not None:
                return entry
        return self.catalog.lookup(*parts)

    def package_info(self, pkg: tuple[str, ...]) -> dict | None:
        entry = self.lookup(pkg)
        if entry is None:
            return None
        return entry.info.get("plsql_package")

    def pkg_members(self, pkg: tuple[str, ...]) -> dict:
        info = self.package_info(pkg)
        return info["members"] if info else {}

    def split_pkg(self, parts: list[str]) -> tuple[tuple[str, ...], list[str]] | None:
        """(package name parts, remaining parts) when parts start with [schema.]package."""
        if len(parts) >= 2 and self.package_info(tuple(parts[:1])) is not None:
            return tuple(parts[:1]), parts[1:]
        if len(parts) >= 3 and self.package_info(tuple(parts[:2])) is not None:
            return tuple(parts[:2]), parts[2:]
        return None

    def package_ref(self, parts: list[str]):
        """(package, symbol, rest) for pkg.var / pkg.type / pkg.exception references."""
        hit = self.split_pkg(parts)
        if hit is None:
            return None
        pkg, rest = hit
        sym = self.pkg_scope(pkg).names.get(rest[0])
        if sym is None:
            return None
        return pkg[-1], sym, rest[1:]

    def package_member(self, parts: list[str]):
        hit = self.split_pkg(parts)
        if hit is None or len(hit[1]) != 1:
            return None
        pkg, rest = hit
        sigs = self.pkg_members(pkg).get(rest[0])
        if sigs is None:
            return None
        return pkg[-1], rest[0], sigs

    def pkg_scope(self, pkg: tuple[str, ...]) -> Scope:
        key = pkg[-1]  # a package becomes the schema named after it
        hit = self._pkg_scopes.get(key)
        if hit is not None:
            return hit
        info = self.package_info(pkg) or {"vars": {}, "types": {}, "exceptions": {}}
        scope = Scope()
        self._pkg_scopes[key] = scope
        saved, self.suppress_pre = self.suppress_pre, True
        saved_pkg, self.pkg = self.pkg, key
        try:
            for d in info["types"].values():
                self.type_decl(d, scope, (key,))
            for name, state in info["exceptions"].items():
                scope.add(Sym(name, "exception", sqlstate=state, conditions=(f"SQLSTATE '{state}'",)))
            for name, code in info.get("exception_init", {}).items():
                scope.add(self.exception_init_sym(name, A.Pragma("EXCEPTION_INIT", [[], code]), (key,)))
            for d in info["vars"].values():
                t = self.resolve_type(d.type, scope)
                scope.add(
                    Sym(
                        d.name,
                        "pkgconst" if d.constant else "pkgvar",
                        t,
                        getter=sql((key, d.name)),
                        setter=sql((key, f"set__{d.name}")),
                    )
                )
        finally:
            self.suppress_pre, self.pkg = saved, saved_pkg
        return scope

    # ---- triggers ----------------------------------------------------------------------------
    def trigger_alias(self, name: str) -> str | None:
        ref = self.trigger.referencing
        for which in ("NEW", "OLD"):
            if name == ref.get(which, which):
                return which
        return None

    def trigger_predicate(self, word: str, toks, j):
        op = {"INSERTING": "INSERT", "UPDATING": "UPDATE", "DELETING": "DELETE"}[word]
        if word == "UPDATING" and j < len(toks) and toks[j].is_op("("):
            inner, j = self.paren_at(toks, j)
            value = string_value(inner[0]) if len(inner) == 1 else None
            if value is None:
                self.unconverted("UPDATING(column)", "the column is not given as a string literal", toks[j - 1])
                return unconverted_marker("UPDATING(column)", " ".join(t.text for t in inner)), j, ""
            # the string holds the column's name as Oracle stores it ('SAL' for sal)
            col = fold('"' + value.replace('"', '""') + '"')
            return self.updating_column(col), j, ""
        return f"(TG_OP = '{op}')", j, ""

    def updating_column(self, col: str) -> str:
        """UPDATING('COL') is true when COL is a SET target, changed or not: a helper `UPDATE OF col`
        trigger (emit_unit.updating_helpers) sets a flag that this trigger takes on entry."""
        q = quote_ident(col)
        if self.trigger.timing == "INSTEAD OF":  # PostgreSQL allows no column list there
            self.ctx.note(
                f"UPDATING('{col}') → NEW.{q} IS DISTINCT FROM OLD.{q}: INSTEAD OF triggers "
                "cannot tell whether an UPDATE listed the column without changing it"
            )
            return f"(TG_OP = 'UPDATE' AND NEW.{q} IS DISTINCT FROM OLD.{q})"
        var = quote_ident(f"updating__{col}")
        if col not in self.updating_cols:
            self.updating_cols.append(col)
            key = updating_flag_key(self.schema, self.trigger.name, col)
            self.extra_decls.append(f"{var} boolean := oracompat.take_flag({pg_string(key)});")
        return f"(TG_OP = 'UPDATE' AND {var})"

    def trigger_return(self) -> list[str]:
        t = self.trigger
        if not t.for_each_row or t.timing == "AFTER":
            return ["RETURN NULL;"]
        events = {e for e, _ in t.events}
        if events == {"DELETE"}:
            return ["RETURN OLD;"]
        if "DELETE" in events:
            return ["IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;", "RETURN NEW;"]
        return ["RETURN NEW;"]


def updating_flag_key(schema: str, trigger: str, col: str) -> str:
    """Custom setting name for "col is being updated" (only letters, digits and _ in each part,
    and no digit first, as PostgreSQL wants of a setting name)."""
    key = "__".join(key_part(p) for p in (schema, trigger, col))
    return "oracompat_upd." + ("_" + key if key[:1].isdigit() else key)


def key_part(name: str) -> str:
    """`name` reduced to [a-z0-9_] for a key; a name that changes in the reduction gets a hash of
    its exact text, so two names that reduce alike ("a b", "a_b") never share a key."""
    clean = re.sub(r"[^a-z0-9_]", "_", name.lower())
    if clean == name:
        return clean
    return f"{clean}_{hashlib.md5(name.encode()).hexdigest()[:8]}"
