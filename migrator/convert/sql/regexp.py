"""REGEXP_LIKE / REGEXP_SUBSTR / REGEXP_INSTR / REGEXP_COUNT / REGEXP_REPLACE with Oracle's match
parameters (rule expr.regexp_match).

Oracle's default differs from PostgreSQL's: '.' does not match a newline, and ^/$ anchor the whole
string — PostgreSQL's 'p' flag ("partial newline-sensitive"). The match parameter changes that: 'i'/
'c' case (the last one wins), 'n' lets '.' match a newline (no flag), 'm' makes ^/$ match at line
breaks ('n'), both together 'w'; 'x' ignores blanks in the pattern, which is done by removing them
(PostgreSQL's own 'x' would also start a comment at '#'). A literal match parameter is translated
here; one known only at run time goes through `oracompat.regexp_flags` / `regexp_pattern`.
REGEXP_REPLACE replaces every match by default (PostgreSQL: the first) and from a position or
the n-th match through `oracompat.regexp_replace`; an empty result is NULL, as in Oracle.
"""

from __future__ import annotations

import re
from typing import Any

from sqlglot import exp

from migrator.convert.context import ConversionContext
from migrator.convert.sql.expression_types import NUMBER, STRING
from migrator.convert.sql.nodes import compat, empty_text, fn, literal_int, literal_str, tag


def pg_flags(match: str) -> str | None:
    """PostgreSQL flags for an Oracle match parameter; None for a letter Oracle refuses (ORA-01760)."""
    ci, dotall, multi = False, False, False
    for ch in match:
        if ch in "ic":
            ci = ch == "i"
        elif ch == "n":
            dotall = True
        elif ch == "m":
            multi = True
        elif ch != "x":
            return None
    return ("i" if ci else "") + ("w" if dotall and multi else "n" if multi else "" if dotall else "p")


def strip_blanks(pattern: str) -> str:
    """Oracle's 'x': blanks in the pattern are ignored (not in a bracket expression, not escaped)."""
    out, bracket, i = [], False, 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and not bracket:
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if bracket:
            bracket = ch != "]"
        elif ch == "[":
            bracket = True
        elif re.match(r"\s", ch):
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _flags_and_pattern(pattern: exp.Expression, match: exp.Expression | None) -> tuple[exp.Expression, exp.Expression]:
    if match is None or isinstance(match, exp.Null):
        return pattern, exp.Literal.string("p")
    text = literal_str(match)
    if text is None:  # known only at run time
        return compat("regexp_pattern", pattern, match.copy()), compat("regexp_flags", match)
    flags = pg_flags(text)
    if flags is None:  # Oracle refuses the letter at run time (ORA-01760): so does the library
        return pattern, compat("regexp_flags", match)
    if "x" in text:
        lit = literal_str(pattern)
        pattern = exp.Literal.string(strip_blanks(lit)) if lit is not None else compat("regexp_pattern", pattern, match)
    return pattern, exp.Literal.string(flags) if flags else empty_text()


def _int(arg: exp.Expression | None) -> exp.Expression | None:
    """PostgreSQL's REGEXP functions take integer positions and counts; Oracle's take NUMBERs."""
    if arg is None or literal_int(arg) is not None:
        return arg
    return exp.cast(arg, "INTEGER")


def regexp(node: exp.Expression, ctx: ConversionContext, env) -> exp.Expression | None:
    if not ctx.enabled("expr.regexp_match"):
        return None
    ctx.applied("expr.regexp_match")
    a: dict[str, Any] = {
        k: (_int(v) if k in ("position", "occurrence", "option", "group") else v) for k, v in node.args.items()
    }
    one = exp.Literal.number(1)
    if isinstance(node, exp.RegexpLike):
        pattern, flags = _flags_and_pattern(a["expression"], a.get("flag"))
        return fn("REGEXP_LIKE", node.this, pattern, flags)
    if isinstance(node, exp.RegexpSubstr):
        pattern, flags = _flags_and_pattern(a["expression"], a.get("parameters"))
        args = [node.this, pattern, a.get("position") or one, a.get("occurrence") or one, flags]
        call = fn("REGEXP_SUBSTR", *args, *([a["group"]] if a.get("group") is not None else []))
        return tag(_null_if_empty(call, ctx), STRING)
    if isinstance(node, exp.RegexpInstr):
        pattern, flags = _flags_and_pattern(a["expression"], a.get("parameters"))
        args = [node.this, pattern, a.get("position") or one, a.get("occurrence") or one]
        args += [a.get("option") or exp.Literal.number(0), flags]
        return tag(fn("REGEXP_INSTR", *args, *([a["group"]] if a.get("group") is not None else [])), NUMBER)
    if isinstance(node, exp.RegexpCount):
        pattern, flags = _flags_and_pattern(a["expression"], a.get("parameters"))
        return tag(fn("REGEXP_COUNT", node.this, pattern, a.get("position") or one, flags), NUMBER)
    if isinstance(node, exp.RegexpReplace):
        return _replace(node, ctx)
    return None


def _replace(node: exp.RegexpReplace, ctx: ConversionContext) -> exp.Expression:
    a = node.args
    pattern, flags = _flags_and_pattern(a["expression"], a.get("modifiers"))
    repl = a.get("replacement")
    if repl is None or isinstance(repl, exp.Null) or literal_str(repl) == "":
        repl = empty_text()
    elif not isinstance(repl, exp.Literal):
        repl = exp.Coalesce(this=repl, expressions=[empty_text()])  # a NULL replacement removes
    pos, occ = a.get("position"), a.get("occurrence")
    if (pos is None or literal_int(pos) == 1) and (occ is None or literal_int(occ) == 0):
        all_flags: exp.Expression = exp.DPipe(this=flags, expression=exp.Literal.string("g"))
        if isinstance(flags, exp.Literal):
            all_flags = exp.Literal.string(flags.this + "g")
        call = fn("REGEXP_REPLACE", node.this, pattern, repl, all_flags)
        if literal_str(repl):  # a non-empty literal replacement: never empty when the source is not
            return tag(call, STRING)
        return tag(_null_if_empty(call, ctx), STRING)
    args = [node.this, pattern, repl, pos or exp.Literal.number(1), occ or exp.Literal.number(0), flags]
    return tag(compat("regexp_replace", *args), STRING)


def _null_if_empty(call: exp.Expression, ctx: ConversionContext) -> exp.Expression:
    """Oracle has no empty string: an empty match or result is NULL."""
    if not ctx.enabled("expr.empty_result_null"):
        return call
    ctx.applied("expr.empty_result_null")
    call.meta["ora_done"] = True
    return exp.Nullif(this=call, expression=empty_text())
