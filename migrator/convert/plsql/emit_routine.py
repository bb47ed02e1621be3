"""Routines (rules plsql.function, plsql.procedure, plsql.empty_string_params): CREATE FUNCTION /
CREATE PROCEDURE, parameters and their defaults, return types, PIPELINED, and the routine's top
block with the declarations the emitter adds. Autonomous routines are wrapped by
`emit_autonomous`; nested subprograms are lifted by `emit_nested`."""

from __future__ import annotations

from harness.quoting import quote_ident
from migrator.convert import signatures
from migrator.convert.context import unconverted_marker
from migrator.convert.ddl.tokens import dollar_tag
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_autonomous as autonomous_
from migrator.convert.plsql import emit_call as call_
from migrator.convert.plsql import emit_decl as decl_
from migrator.convert.plsql import emit_outfunc as outfunc_
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import Owner, sql
from migrator.convert.plsql.output import IND, Out
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import Scope, Sym
from migrator.source.lexer import NAME_KINDS


def create_function(head: str, body_lines: list[str]) -> str:
    body = "\n".join(body_lines)
    tag = dollar_tag(body)
    return f"{head}\nLANGUAGE plpgsql AS {tag}\n{body}\n{tag};"


def routine_head(kind: str, qname: tuple[str, str], params: list[str], ret: str | None) -> str:
    plist = ", ".join(params)
    if kind == "FUNCTION":
        return f"CREATE OR REPLACE FUNCTION {sql(qname)}({plist})\nRETURNS {ret}"
    return f"CREATE OR REPLACE PROCEDURE {sql(qname)}({plist})"


def out_after_default(r: A.Routine) -> set[int]:
    """Indexes of procedure parameters that follow a defaulted one and are OUT or IN OUT without
    a default. PostgreSQL needs a default on each of them (a procedure's OUT parameters are part
    of its call signature) but refuses one on an OUT parameter; an INOUT parameter may have one."""
    if r.kind != "PROCEDURE":
        return set()
    first = next((k for k, p in enumerate(r.params) if p.default is not None), len(r.params))
    return {k for k, p in enumerate(r.params) if k > first and p.mode != "IN" and p.default is None}


class RoutineEmitter:
    """Functions on the Emitter for whole routines (kept apart from statement code)."""

    def __init__(self, em):
        self.em = em
        self.reset: list[str] = []  # OUT parameters made INOUT: set to NULL on entry
        # a function with OUT parameters gets the shape of emit_outfunc (its calls are rewritten);
        # object type methods keep the refusal (their calls are not)
        self.out_record = True

    def params(self, r: A.Routine, scope: Scope) -> list[str]:
        em = self.em
        out, seen_default = [], False
        after_default = out_after_default(r)
        if after_default and not em.ctx.enabled("plsql.out_after_default"):
            # as written, PostgreSQL refuses it: an OUT parameter after one with a default
            em.unconverted("OUT parameter after a default", "rule plsql.out_after_default is disabled", r.line)
            after_default = set()
        for k, p in enumerate(r.params):
            t = decl_.resolve_type(em, p.type, scope)
            scope.add(Sym(p.name, "param", t))
            mode = {"IN": "", "OUT": "OUT ", "INOUT": "INOUT "}[p.mode]
            text = f"{mode}{quote_ident(p.name)} {t.pg}"
            if k in after_default:
                # Every Oracle call form keeps working (positional, named, leaving the default
                # out); the caller's variable comes in, so an OUT parameter starts NULL as in Oracle
                text = f"INOUT {quote_ident(p.name)} {t.pg} DEFAULT NULL"
                if p.mode == "OUT":
                    self.reset.append(f"{quote_ident(p.name)} := NULL;")
                em.ctx.applied("plsql.out_after_default")
                em.ctx.note(f"parameter {p.name}: INOUT DEFAULT NULL (follows a defaulted parameter)")
            elif p.default is not None:
                seen_default = True
                text += f" DEFAULT {exprs_.expr(em, p.default, scope)}"
            elif seen_default and p.mode != "OUT":
                # PostgreSQL needs defaults on every input after a defaulted one; Oracle callers of
                # such a routine must already pass this parameter (by name), so NULL is never used.
                text += " DEFAULT NULL"
                em.ctx.note(f"parameter {p.name}: DEFAULT NULL added (follows a defaulted parameter)")
            out.append(text)
        if r.kind == "FUNCTION" and outfunc_.sets_out(r.params) and self.out_record:
            if em.ctx.enabled("plsql.function_out_params"):
                return out  # the result column is added with the return type (routine)
            em.unconverted("function OUT parameter", "rule plsql.function_out_params is disabled", r.line)
            out.append(unconverted_marker("function OUT parameter", r.name))
        elif r.kind == "FUNCTION" and outfunc_.sets_out(r.params):
            em.unconverted(
                "function OUT parameter",
                f"function {r.name}: Oracle returns a value and OUT parameters; callers would need rewriting",
                r.line,
            )
            out.append(unconverted_marker("function OUT parameter", r.name))
        return out

    def returns(self, r: A.Routine, scope: Scope) -> str:
        em = self.em
        assert r.returns is not None  # the parser gives every FUNCTION its RETURN type
        t = decl_.resolve_type(em, r.returns, scope)
        if r.pipelined:
            em.frame.pipelined = True
            if t.coll is None:
                em.unconverted("PIPELINED", pipelined_reason(em, r.returns, scope), r.line)
                return f"SETOF {unconverted_marker('PIPELINED', t.pg)}"
            return f"SETOF {t.coll.elem_pg}"
        return t.pg

    def body(
        self,
        block: A.Block,
        scope: Scope,
        owner: Owner,
        head_stmts: list[str],
        tail_stmts: list[str],
        params: list[A.Param] | None = None,
    ) -> list[str]:
        """The routine's top block with the emitter's extra declarations merged in."""
        em = self.em
        out = Out()
        stmt_.block_lines(em, block, scope, owner, out)
        lines = out.lines
        extras = list(dict.fromkeys(em.frame.extra_decls))
        for c in sorted(em.tracked_cursors):
            extras += [f"{quote_ident(c + '__found')} boolean;", f"{quote_ident(c + '__rowcount')} integer := 0;"]
        if em.uses_sql_rowcount:
            extras.append("sql__rowcount integer := 0;")
        if tail_stmts and block.handlers:
            inner = [IND + line for line in lines]
            lines = ["BEGIN"] + inner + [IND + s for s in tail_stmts] + ["END;"]
        elif tail_stmts:
            lines = lines[:-1] + [IND + s for s in tail_stmts] + lines[-1:]
        if extras:
            if lines[0] == "DECLARE" or (block.label and len(lines) > 1 and lines[1] == "DECLARE"):
                k = lines.index("DECLARE") + 1
                lines = lines[:k] + [IND + e for e in extras] + lines[k:]
            else:
                k = lines.index("BEGIN")
                lines = lines[:k] + ["DECLARE"] + [IND + e for e in extras] + lines[k:]
        if head_stmts and self.initialises(block, params or []) and em.ctx.enabled("plsql.declaration_order"):
            # Oracle initialises the declarations after the call has bound its parameters ('' is
            # already NULL): the normalising statements run first, in an outer block without a
            # handler, so an initialiser's error still goes to the caller, as in Oracle
            em.ctx.applied("plsql.declaration_order")
            lines = ["BEGIN"] + [IND + s for s in head_stmts] + [IND + line for line in lines] + ["END;"]
        elif head_stmts:
            k = lines.index("BEGIN") + 1
            lines = lines[:k] + [IND + s for s in head_stmts] + lines[k:]
        # Oracle resolves a name that is both a column and a variable to the column
        return ["#variable_conflict use_column"] + lines

    @staticmethod
    def initialises(block: A.Block, params: list[A.Param]) -> bool:
        """Whether an initial value of the block's declarations reads a parameter."""
        names = {p.name for p in params}
        return any(
            isinstance(d, A.VarDecl)
            and d.default
            and any(t.kind in NAME_KINDS and norm_name(t) in names for t in d.default)
            for d in block.decls
        )

    def routine(
        self, r: A.Routine, qname: tuple[str, str], parent: Scope, owner: Owner, head_stmts: list[str] | None = None
    ) -> str:
        """CREATE FUNCTION/PROCEDURE `qname` (plain schema and name parts) for `r`."""
        em = self.em
        rule = "plsql.function" if r.kind == "FUNCTION" else "plsql.procedure"
        if r.external and r.external[0].is_word("AGGREGATE"):
            impl = " ".join(t.text for t in r.external[2:]) or "?"
            em.unconverted(
                "user-defined aggregate",
                f"{r.name}: AGGREGATE USING {impl} (the ODCIAggregate interface); PostgreSQL's CREATE AGGREGATE "
                "would need the implementation type's methods as state and final functions",
                r.line,
            )
            return unconverted_marker("user-defined aggregate", r.name) + ";"
        if r.external is not None or r.block is None:
            em.unconverted("external routine", f"{r.name}: LANGUAGE C/JAVA or no body", r.line)
            return unconverted_marker("external routine", r.name) + ";"
        if not em.ctx.enabled(rule):
            em.unconverted(r.kind, f"rule {rule} disabled", r.line)
            return unconverted_marker(r.kind, r.name) + ";"
        em.frame.kind = r.kind
        scope = parent.child()
        params = self.params(r, scope)
        if (tag := self.overload_tag(r, parent)) is not None:
            params.append(f"{quote_ident(tag)} boolean DEFAULT NULL")
        ret = self.returns(r, scope) if r.kind == "FUNCTION" else None
        if (
            ret is not None
            and self.out_record
            and outfunc_.sets_out(r.params)
            and em.ctx.enabled("plsql.function_out_params")
        ):
            if r.pipelined:
                em.unconverted("function OUT parameter", f"PIPELINED function {r.name} with OUT parameters", r.line)
                return unconverted_marker("function OUT parameter", r.name) + ";"
            renamed = outfunc_.definition_name(em, r, parent)
            if renamed is not None:  # another overload takes the same inputs
                em.ctx.note(f"function {r.name} with OUT parameters is {sql((qname[0], renamed))}")
                qname = (qname[0], renamed)
            # OUT parameters and the return value as the last one: PostgreSQL returns them as a row
            params.append(f"OUT {outfunc_.RESULT} {ret}")
            ret = "record"
            em.frame.out_result = outfunc_.RESULT
            em.ctx.applied("plsql.function_out_params")
        if r.kind == "PROCEDURE":
            qname = self.procedure_name(r, qname, parent, scope)
        head = (head_stmts or []) + self.reset + self.empty_strings(r, scope)
        body = self.body(r.block, scope, owner, head, outfunc_.falls_off(em, r.block), r.params)
        em.ctx.applied(rule)
        if em.frame.autonomous and em.frame.out_result is not None:
            em.unconverted("function OUT parameter", f"autonomous function {r.name} with OUT parameters", r.line)
            return unconverted_marker("function OUT parameter", r.name) + ";"
        if em.frame.autonomous:
            return autonomous_.autonomous_routine(em, r, qname, params, ret, body, scope)
        return create_function(routine_head(r.kind, qname, params, ret), body)

    def overload_tag(self, r: A.Routine, parent: Scope) -> str | None:
        """Oracle lets overloads differ only in their parameters' names (`f(p_schema VARCHAR2)`,
        `f(p_package VARCHAR2)`), told apart by named calls (a positional one is PLS-00307).
        PostgreSQL identifies a routine by its input types, so the second and later of such
        overloads get one more, defaulted parameter (``overload__<k> boolean DEFAULT NULL``): the
        definitions coexist and PostgreSQL, matching named arguments to parameter names, picks the
        one Oracle picks. None for the first, and where the routine has OUT parameters after its
        inputs in a procedure (PostgreSQL allows none after a defaulted one): left as it was."""
        em = self.em
        sigs = call_.call_signatures(em, [r.name], parent) or []
        names = tuple((p.name, p.mode) for p in r.params)
        mine = [s for s in sigs if s.kind == r.kind and tuple((p.name, p.mode) for p in s.params) == names]
        if len(mine) != 1:
            return None

        def inputs(sig) -> tuple:
            return tuple(signatures.base_type(p.pg) for p in sig.params if p.mode != "OUT")

        alike = [s for s in sigs if s.kind == r.kind and inputs(s) == inputs(mine[0])]
        k = alike.index(mine[0])
        if k == 0 or (r.kind == "PROCEDURE" and any(p.mode != "IN" for p in r.params)):
            return None
        em.ctx.note(
            f"{r.kind.lower()} {r.name}: overload {k + 1} of the same input types, told apart by parameter names"
        )
        return f"overload__{k + 1}"

    def procedure_name(self, r: A.Routine, qname: tuple[str, str], parent: Scope, scope: Scope) -> tuple[str, str]:
        """A procedure whose package also has a function of its name taking the same inputs is
        ``<name>__proc`` (`signatures.procedure_name`)."""
        em = self.em
        sigs = call_.call_signatures(em, [r.name], parent) or []
        names = tuple((p.name, p.mode) for p in r.params)
        mine = [s for s in sigs if s.kind == "PROCEDURE" and tuple((p.name, p.mode) for p in s.params) == names]
        if len(mine) > 1:  # overloads with the same parameter names: told apart by their types
            types = [scope.names[p.name].type if p.name in scope.names else None for p in r.params]
            bases = tuple(signatures.base_type(t.plain_pg) if t is not None else None for t in types)
            mine = [s for s in mine if tuple(p.base for p in s.params) == bases]
        if len(mine) != 1:
            return qname
        own = signatures.procedure_name(sigs, mine[0])
        if own == mine[0].target[1]:
            return qname
        em.ctx.note(f"procedure {r.name} is {sql((qname[0], own))}: a function of the same name takes the same inputs")
        return (qname[0], own)

    def empty_strings(self, r: A.Routine, scope: Scope) -> list[str]:
        """Oracle has no empty strings ('' is NULL): string inputs are normalised on entry, so the
        body sees what Oracle code would see when PostgreSQL callers pass ''."""
        em = self.em
        if not em.ctx.enabled("plsql.empty_string_params"):
            return []
        out = []
        for p in r.params:
            t = scope.names[p.name].type
            if (
                p.mode != "OUT"
                and t is not None
                and t.coll is None  # a collection of strings is no string
                and t.plain_pg.startswith(("varchar", "char", "text", "character"))
            ):
                out.append(f"{quote_ident(p.name)} := nullif({quote_ident(p.name)}, '');")
        if out:
            em.ctx.applied("plsql.empty_string_params")
        return out


def pipelined_reason(em: Emitter, tref: A.TypeRef, scope: Scope) -> str:
    """Why a PIPELINED function's return type gives no set: it names no type the export declares
    (a schema-level collection created outside the export is the usual case), or a type that is
    not a nested table or VARRAY."""
    toks = tref.toks
    if toks and all(t.kind in ("word", "qident") or t.is_op(".") for t in toks):
        parts = [norm_name(t) for t in toks if not t.is_op(".")]
        res = em.resolver
        declared = (
            res.lookup(parts) is not None
            or (len(parts) == 1 and scope.get(parts[0]) is not None)
            or (len(parts) == 1 and res.pkg is not None and parts[0] in res.pkg_scope((res.pkg,)).names)
            or (len(parts) > 1 and res.package_ref(parts) is not None)
        )
        if not declared:
            return (
                f"return type {tref.text} is not declared in the export (no CREATE TYPE and no package"
                " TYPE of that name): its element type, and so the rows, are unknown"
            )
    return f"return type {tref.text} is not a nested table or VARRAY type"
