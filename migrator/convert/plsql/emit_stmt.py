"""Control flow → PL/pgSQL: assignments, IF, CASE, loops (LOOP, WHILE, numeric and cursor FOR),
EXIT/CONTINUE, forward and backward GOTO (gotos.py), RETURN, PIPE ROW, NULL, and blocks with their labels. Each
statement emitter is registered for its class with `statements.emits` and writes to an `Out`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_decl as decl_
from migrator.convert.plsql import emit_exceptions as exc_
from migrator.convert.plsql import emit_outfunc as outfunc_
from migrator.convert.plsql import emit_sql as sql_
from migrator.convert.plsql import emit_trigger as trigger_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import gotos, statements
from migrator.convert.plsql import targets as targets_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import Owner, label, sql, target_text
from migrator.convert.plsql.output import Out
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.statements import emits
from migrator.convert.plsql.symbols import PgType, Scope, Sym
from migrator.convert.sql.expression_types import STRING, classify
from migrator.oracle_types import CHAR_TYPE, TEXT_NAMES, first_word, takes_text_only
from migrator.oracle_types import parse as parse_type
from migrator.source.lexer import Token, split_top_level


def stmts(em: Emitter, body: list, scope: Scope, out: Out) -> None:
    """A statement list. A label on a statement other than a loop or block is only a GOTO
    target (PL/pgSQL labels nothing else): forward jumps to it leave a block wrapped around
    the statements before it (`gotos.py`, rule plsql.goto)."""
    forward = gotos.regions(body) if em.ctx.enabled("plsql.goto") else []
    wrap = {r.start: r for r in forward}
    back = {r.start: r for r in gotos.back_regions(body, forward)} if em.ctx.enabled("plsql.goto") else {}
    k = 0
    while k < len(body):
        if (again := back.pop(k, None)) is not None:
            goto_loop(em, body, again, wrap, scope, out)
            k = again.end
            continue
        region = wrap.get(k)
        if region is not None:
            goto_block(em, body[region.start : region.end], region, scope, out)
            k = region.end
            continue
        statements.stmt(em, body[k], scope, out)
        k += 1


def branch(em: Emitter, body: list, scope: Scope, out: Out) -> None:
    """The statements of a branch, one level in; NULL when they write nothing (PL/pgSQL needs one)."""
    with out.indented():
        before = len(out.lines)
        stmts(em, body, scope, out)
        if len(out.lines) == before:
            out.line("NULL;")


@contextmanager
def _jump_target(targets: dict[str, str], region: gotos.Region) -> Iterator[None]:
    """While the region's statements are written, a GOTO to its label leaves (or continues) the
    region's block; an outer region of the same label is put back afterwards."""
    before = targets.get(region.target)
    targets[region.target] = region.block
    try:
        yield
    finally:
        if before is None:
            del targets[region.target]
        else:
            targets[region.target] = before


def goto_loop(em: Emitter, body: list, region: gotos.Region, wrap: dict, scope: Scope, out: Out) -> None:
    """A backward GOTO's statements as a labelled loop each GOTO continues (`gotos.py`); forward
    regions inside it are written within."""
    out.line(f"<<{out.ident(region.block)}>>")
    out.line("LOOP")
    with _jump_target(em.frame.goto_loops, region), out.indented():
        k = region.start
        while k < region.end:
            inner = wrap.get(k)
            if inner is not None and inner.end < region.end:
                goto_block(em, body[inner.start : inner.end], inner, scope, out)
                k = inner.end
                continue
            statements.stmt(em, body[k], scope, out)
            k += 1
        out.line(f"EXIT {out.ident(region.block)};")
    em.ctx.applied("plsql.goto")
    out.line("END LOOP;")


def goto_block(em: Emitter, body: list, region: gotos.Region, scope: Scope, out: Out) -> None:
    out.line(f"<<{out.ident(region.block)}>>")
    out.line("BEGIN")
    with _jump_target(em.frame.goto_exits, region), out.indented():
        stmts(em, body, scope, out)
    em.ctx.applied("plsql.goto")
    out.line("END;")


def text_valued(em: Emitter, toks, scope) -> bool:
    """A string literal or a variable of a character type."""
    if len(toks) != 1:
        return False
    if toks[0].kind == "string":
        return True
    sym = scope.get(norm_name(toks[0])) if toks[0].kind in ("word", "qident") else None
    ora = (sym.type.ora if sym is not None and sym.type is not None else "").upper()
    return first_word(ora) in TEXT_NAMES


def label_prefix(em: Emitter, st, out: Out) -> None:
    if st.label:
        out.line(f"<<{out.ident(st.label)}>>")


# ---- simple statements ---------------------------------------------------------------
@emits(A.Null)
def st_null(em: Emitter, st, scope: Scope, out: Out) -> None:
    out.line("NULL;")


@emits(A.Assign)
def st_assign(em: Emitter, st: A.Assign, scope: Scope, out: Out) -> None:
    if em.frame.trigger is not None and st.target and st.target[0].kind == "bind":
        alias = trigger_.trigger_alias(em, st.target[0].text[1:].upper())
        if alias:
            out.line(f"{alias}{target_text(st.target[1:])} := {exprs_.expr(em, st.value, scope)};")
            return
    lv = targets_.lvalue(em, st.target, scope)
    target = scope.get(norm_name(st.target[0])) if len(st.target) == 1 and st.target[0].kind != "bind" else None
    target_ora = target.type.ora if target is not None and target.type is not None else ""
    value = value_expr(em, st.value, scope, target_ora)
    out.each(lv.setup)
    if lv.target.startswith("aa:"):
        out.line(f"{lv.target[3:].replace('{value}', value)};")
    else:
        out.line(f"{lv.target} := {value};")
    out.each(lv.finish)


@emits(A.If)
def st_if(em: Emitter, st: A.If, scope: Scope, out: Out) -> None:
    if_lines(em, st, 0, exprs_.expr(em, st.branches[0][0], scope), scope, out)


def if_lines(em: Emitter, st: A.If, first: int, cond: str, scope: Scope, out: Out) -> None:
    """IF from branch `first` on, its condition converted (`cond`). An ELSIF whose condition
    hoists statements (a function with OUT parameters, emit_outfunc) runs them only when it is
    reached, as Oracle evaluates it: ELSE, the statements, and an IF of the remaining branches."""
    out.line(f"IF {cond} THEN")
    branch(em, st.branches[first][1], scope, out)
    for k in range(first + 1, len(st.branches)):
        with outfunc_.hoisting(em) as hoisted:
            text = exprs_.expr(em, st.branches[k][0], scope)
        if hoisted:
            out.line("ELSE")
            with out.indented():
                out.each(hoisted)
                if_lines(em, st, k, text, scope, out)
            out.line("END IF;")
            return
        out.line(f"ELSIF {text} THEN")
        branch(em, st.branches[k][1], scope, out)
    if st.orelse is not None:
        out.line("ELSE")
        branch(em, st.orelse, scope, out)
    out.line("END IF;")


@emits(A.Case)
def st_case(em: Emitter, st: A.Case, scope: Scope, out: Out) -> None:
    out.line("CASE" + (f" {exprs_.expr(em, st.selector, scope)}" if st.selector else ""))
    with out.indented():
        for k, (cond, body) in enumerate(st.whens):
            with outfunc_.hoisting(em) as hoisted:
                text = exprs_.expr(em, cond, scope)
            if hoisted and k > 0:  # a later WHEN is evaluated only when reached
                em.unconverted(
                    "function with OUT parameters",
                    "a CASE statement's WHEN after the first calls a function with OUT parameters",
                    st.line,
                )
                text = unconverted_marker("function with OUT parameters", "CASE WHEN")
            elif hoisted and em.frame.hoisted is not None:  # the first WHEN is always evaluated
                em.frame.hoisted.extend(hoisted)
            out.line(f"WHEN {text} THEN")
            branch(em, body, scope, out)
        if st.orelse is not None:
            out.line("ELSE")
            branch(em, st.orelse, scope, out)
    out.line("END CASE;")  # no ELSE: both raise CASE_NOT_FOUND / case_not_found


def loop_lines(em: Emitter, st, head: str, body, scope, out: Out) -> None:
    label_prefix(em, st, out)
    out.line(head)
    with out.indented():
        stmts(em, body, scope, out)
    out.line("END LOOP;")


@emits(A.Loop)
def st_loop(em: Emitter, st: A.Loop, scope: Scope, out: Out) -> None:
    loop_lines(em, st, "LOOP", st.body, scope, out)


@emits(A.While)
def st_while(em: Emitter, st: A.While, scope: Scope, out: Out) -> None:
    with outfunc_.hoisting(em) as hoisted:
        cond = exprs_.expr(em, st.cond, scope)
    if not hoisted:
        loop_lines(em, st, f"WHILE {cond} LOOP", st.body, scope, out)
        return
    # the condition calls a function with OUT parameters (emit_outfunc): before each iteration
    label_prefix(em, st, out)
    out.line("LOOP")
    with out.indented():
        out.each(hoisted)
        out.line(f"EXIT WHEN NOT coalesce({cond}, false);")
        stmts(em, st.body, scope, out)
    out.line("END LOOP;")


@emits(A.ForRange)
def st_forrange(em: Emitter, st: A.ForRange, scope: Scope, out: Out) -> None:
    lo, hi = exprs_.expr(em, st.lo, scope), exprs_.expr(em, st.hi, scope)
    inner = scope.child()
    inner.add(Sym(st.var, "loopvar", PgType("integer", "PLS_INTEGER")))
    # PL/SQL: REVERSE lo..hi counts hi down to lo; PL/pgSQL takes the bounds as REVERSE hi..lo.
    var = out.ident(st.var)
    head = f"FOR {var} IN REVERSE {hi}..{lo} LOOP" if st.reverse else f"FOR {var} IN {lo}..{hi} LOOP"
    loop_lines(em, st, head, st.body, inner, out)


@emits(A.ForCursor)
def st_forcursor(em: Emitter, st: A.ForCursor, scope: Scope, out: Out) -> None:
    inner = scope.child()
    cursor = st.cursor or ()  # a named cursor, or () for an inline query
    sym = scope.get(cursor[0]) if st.query is None and len(cursor) == 1 else None
    query = sym.sigs[0][0].query if sym is not None and sym.kind == "cursor" and sym.sigs else st.query
    inner.add(Sym(st.var, "var", PgType("record", composite=True, fields=decl_.query_fields(em, query))))
    var = out.ident(st.var)
    if st.query is not None:
        head = f"FOR {var} IN {sql_.query_text(em, st.query, scope)} LOOP"
        # a query FOR loop needs its record declared; the block keeps it local as in PL/SQL
        out.line("DECLARE")
        with out.indented():
            out.line(f"{var} record;")
        out.line("BEGIN")
        with out.indented():
            loop_lines(em, st, head, st.body, inner, out)
        out.line("END;")
        return
    if sym is None or sym.kind != "cursor":
        em.unconverted("cursor FOR loop", f"cursor {label(cursor)} is not a cursor declared in this unit", st.line)
        out.line(f"{unconverted_marker('cursor FOR loop', label(cursor))};")
        return
    args = f"({', '.join(call_args(em, st.args, scope))})" if st.args else ""
    loop_lines(em, st, f"FOR {var} IN {sql(cursor)}{args} LOOP", st.body, inner, out)


@emits(A.Exit)
def st_exit(em: Emitter, st: A.Exit, scope: Scope, out: Out) -> None:
    text = st.keyword + (f" {out.ident(st.target)}" if st.target else "")
    if st.cond:
        text += f" WHEN {exprs_.expr(em, st.cond, scope)}"
    out.line(f"{text};")


@emits(A.Goto)
def st_goto(em: Emitter, st: A.Goto, scope: Scope, out: Out) -> None:
    block = em.frame.goto_exits.get(st.target.lower())
    if block is not None:
        out.line(f"EXIT {out.ident(block)};  -- GOTO {st.target}")
        return
    again = em.frame.goto_loops.get(st.target.lower())
    if again is not None:
        out.line(f"CONTINUE {out.ident(again)};  -- GOTO {st.target} (backward)")
        return
    how = (
        "this backward GOTO: it crosses another jump or an unlabelled EXIT/CONTINUE"
        if em.ctx.enabled("plsql.goto")
        else "GOTO"
    )
    em.unconverted("GOTO", f"GOTO {st.target}: PL/pgSQL has no GOTO ({how} is not converted)", st.line)
    out.line(f"{unconverted_marker('GOTO', 'GOTO ' + st.target)};")


@emits(A.BlockStmt)
def st_blockstmt(em: Emitter, st: A.BlockStmt, scope: Scope, out: Out) -> None:
    block_lines(em, st.block, scope.child(), em.frame.owner, out)


@emits(A.Unsupported)
def st_unsupported(em: Emitter, st: A.Unsupported, scope: Scope, out: Out) -> None:
    text = " ".join(t.text for t in st.toks)
    em.unconverted(st.construct, "not supported", st.line)
    out.line(f"{unconverted_marker(st.construct, text)};")


@emits(A.PipeRow)
def st_piperow(em: Emitter, st: A.PipeRow, scope: Scope, out: Out) -> None:
    out.line(f"RETURN NEXT {exprs_.expr(em, st.value, scope)};")


@emits(A.Return)
def st_return(em: Emitter, st: A.Return, scope: Scope, out: Out) -> None:
    if em.frame.trigger is not None:
        out.each(trigger_.trigger_return(em))
    elif em.frame.pipelined:
        out.line("RETURN;")
    elif em.frame.returns_self:  # a constructor's RETURN
        out.line("RETURN self;")
    elif st.value is None:
        out.line("RETURN;")
    elif em.frame.out_result is not None:  # a function with OUT parameters (emit_outfunc)
        out.line(f"{em.frame.out_result} := {value_expr(em, st.value, scope)};")
        out.line("RETURN;")
    else:
        out.line(f"RETURN {value_expr(em, st.value, scope)};")


def value_expr(em: Emitter, toks, scope, target_ora: str = "") -> str:
    """A value that is assigned or returned. A CHAR(n) variable keeps its blanks when Oracle
    assigns it to a VARCHAR2 (PostgreSQL's char → varchar cast drops them): its padded text is
    assigned, which a char(n) target pads again anyway (rule expr.char_semantics). Text assigned
    to a RAW is read as hex, as Oracle's implicit HEXTORAW does (rule expr.raw_hex)."""
    text = exprs_.expr(em, toks, scope)
    if takes_text_only(target_ora.upper()) and text_valued(em, toks, scope) and em.ctx.enabled("expr.raw_hex"):
        em.ctx.applied("expr.raw_hex")
        return f"decode({text}, 'hex')"
    if len(toks) == 1 and toks[0].kind in ("word", "qident"):
        sym = scope.get(norm_name(toks[0]))
        ora = (sym.type.ora if sym is not None and sym.type is not None else "").upper()
        if CHAR_TYPE.match(ora) and em.ctx.enabled("expr.char_semantics"):
            em.ctx.applied("expr.char_semantics")
            return f"oracompat.to_text({text})"
        interval = parse_type(ora) if ora.startswith("INTERVAL") else None
        if interval is not None and classify(target_ora) == STRING and em.ctx.enabled("expr.interval_arith"):
            # an interval assigned to a VARCHAR2 is printed as its type prints it
            em.ctx.applied("expr.interval_arith")
            ym = interval.name == "INTERVAL YEAR TO MONTH"
            frac = 0 if ym else (interval.fraction if interval.fraction is not None else 6)
            lead = interval.leading if interval.leading is not None else 2
            return f"oracompat.interval_text({text}, {lead}, {frac}, {'TRUE' if ym else 'FALSE'})"
    return text


# ---- blocks ----------------------------------------------------------------------------
def block_lines(em: Emitter, block: A.Block, scope: Scope, owner: Owner, out: Out) -> None:
    with em.within(hoisted=None):  # no statement runs before a declaration (emit_outfunc)
        decls = decl_.declarations(em, block.decls, scope, owner)
    deferred = bulk_errors_handled(em, block, scope)  # (after the declarations: its exceptions)
    if deferred is not None:
        block_with_bulk_errors(em, block, scope, decls, *deferred, out)
        return
    first = block.body[0] if block.body else None
    if block.handlers and isinstance(first, A.Sql) and first.toks[0].is_word("SAVEPOINT") and len(first.toks) == 2:
        # SAVEPOINT as a block's first statement + ROLLBACK TO it in the handlers is exactly what
        # a PL/pgSQL exception block does: its subtransaction starts at BEGIN.
        em.frame.block_savepoints.add(norm_name(first.toks[1]))
    if block.label:
        out.line(f"<<{out.ident(block.label)}>>")
    if decls:
        out.line("DECLARE")
        with out.indented():
            out.each(decls)
    out.line("BEGIN")
    with out.indented():
        stmts(em, block.body, scope, out)
    if block.handlers:
        exc_.handler_lines(em, block.handlers, scope, out)
    out.line("END;")


def bulk_errors_handled(em: Emitter, block: A.Block, scope: Scope) -> tuple[int, A.Handler] | None:
    """(index of a FORALL ... SAVE EXCEPTIONS in the block's statements, the handler of the
    block that catches its ORA-24381), when there are both."""
    k = next((i for i, st in enumerate(block.body) if isinstance(st, A.Forall) and st.save_exceptions), None)
    if k is None or not block.handlers:
        return None
    for h in block.handlers:
        for name in h.names:
            if name == ("others",):
                return k, h
            sym = exc_.exception_lookup(em, name, scope)
            if sym is not None and sym.sqlstate == "OS381":
                return k, h
    return None


def block_with_bulk_errors(
    em: Emitter, block: A.Block, scope: Scope, decls: list[str], k: int, h: A.Handler, out: Out
) -> None:
    """A block whose FORALL ... SAVE EXCEPTIONS fails in some iterations and whose handler
    catches ORA-24381. In Oracle the handler runs with the successful iterations (and the work
    before them) kept; a PL/pgSQL handler would roll its block back. So the block's work runs
    in an inner block (its handlers for any other error), and ORA-24381 is raised after it, in a
    block of its own whose only handler is that one: nothing is undone, and what the handler
    raises leaves the block as in Oracle (no sibling handler catches it)."""
    em.ctx.applied("plsql.collections")
    if block.label:
        out.line(f"<<{out.ident(block.label)}>>")
    out.line("DECLARE")
    with out.indented():
        out.each(decls)
        out.line("bulk__failed boolean := false;")
    out.line("BEGIN")
    with out.indented():
        out.line("BEGIN")
        with out.indented():
            stmts(em, block.body[:k], scope, out)
            with em.within(bulk_deferred=True):
                stmts(em, [block.body[k]], scope, out)
            with out.indented(), out.aside() as rest:
                stmts(em, block.body[k + 1 :], scope, out)
            if rest:
                out.line("IF NOT bulk__failed THEN")
                out.place(rest)
                out.line("END IF;")
        exc_.handler_lines(em, block.handlers, scope, out)
        out.line("END;")
        out.line("IF bulk__failed THEN")
        with out.indented():
            out.line("BEGIN")
            with out.indented():
                out.line("RAISE EXCEPTION 'error(s) in array DML' USING ERRCODE = 'OS381';")
            exc_.handler_lines(em, [h], scope, out)
            out.line("END;")
        out.line("END IF;")
    out.line("END;")


def call_args(em: Emitter, toks: list[Token] | None, scope) -> list[str]:
    if not toks:
        return []
    out = []
    for arg in split_top_level(toks):
        if len(arg) > 2 and arg[1].is_op("=>"):
            out.append(f"{quote_ident(norm_name(arg[0]))} => {exprs_.expr(em, arg[2:], scope)}")
        else:
            out.append(exprs_.expr(em, arg, scope))
    return out
