"""utPLSQL v3 expectations in a team's test packages (rule plsql.utplsql_expect).

utPLSQL writes an expectation as a method chain on an object: ``ut.expect(actual[, message])``
returns an expectation, and a matcher method is called on it — ``.to_equal(expected)``,
``.not_to_be_null()``, ``.to_(equal(expected))``, ``.not_to(be_between(1, 3))``. PL/pgSQL has no
such objects, so the chain becomes one call of the matcher with the expectation as its first
argument, in the `ut` schema `migrator/suites/ut.sql` deploys::

    ut.expect(v_total, 'total').to_equal(30);   →   PERFORM ut.to_equal(ut.expect(v_total, 'total'), 30);
    ut.expect(c).not_to(be_empty());            →   PERFORM ut.not_to_be_empty(ut.expect(c));

The arguments convert as any PL/SQL expression; ``anydata.convertCollection(x)`` (how utPLSQL
compares collections) is the collection itself, since `ut.expect` reads any array. ``ut.fail(msg)``
is ``PERFORM ut.fail(msg)``. ``.to_equal(c).unordered`` passes ``a_unordered => true``,
``.include(cols)`` / ``.exclude(cols)`` the columns compared. A modifier the `ut` schema does not
implement (``.join_by(...)``, ``.unordered_columns``) or an unknown matcher is reported as not
converted, so the test cannot pass silently.
"""

from __future__ import annotations

from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.output import Out
from migrator.convert.plsql.symbols import Scope
from migrator.source.lexer import Token, split_top_level, string_value

CONSTRUCT = "utPLSQL expectation"

# matcher names of utPLSQL v3 the `ut` schema implements (each as to_X and not_to_X)
MATCHERS = frozenset(
    {
        "equal",
        "be_null",
        "be_not_null",
        "be_true",
        "be_false",
        "be_empty",
        "be_greater_than",
        "be_greater_or_equal",
        "be_less_than",
        "be_less_or_equal",
        "be_between",
        "match",
        "be_like",
        "contain",
        "have_count",
        "be_within",
        "be_within_pct",
    }
)


def _closing(toks: list[Token], k: int) -> int:
    """The index of the ')' matching the '(' at `k` (-1 when unbalanced)."""
    depth = 0
    for j in range(k, len(toks)):
        depth += toks[j].is_op("(") - toks[j].is_op(")")
        if depth == 0:
            return j
    return -1


def _chain(toks: list[Token]) -> list[tuple[str, list[Token] | None]] | None:
    """`.m1(args).m2.m3(args)` → [(m1, args), (m2, None), ...]; None when it is not such a chain."""
    out: list[tuple[str, list[Token] | None]] = []
    k = 0
    while k < len(toks):
        if not toks[k].is_op(".") or k + 1 >= len(toks) or toks[k + 1].kind != "word":
            return None
        name = toks[k + 1].upper.lower()
        k += 2
        if k < len(toks) and toks[k].is_op("("):
            j = _closing(toks, k)
            if j < 0:
                return None
            out.append((name, toks[k + 1 : j]))
            k = j + 1
        else:
            out.append((name, None))
    return out


def _ut_start(toks: list[Token]) -> int | None:
    """Where `UT.` starts in a call's name (after an optional owner: `UT3.UT.`), or None."""
    for k in (0, 2):
        if (
            len(toks) > k + 2
            and toks[k].kind == "word"
            and toks[k].upper == "UT"
            and toks[k + 1].is_op(".")
            and (k == 0 or toks[1].is_op("."))
        ):
            return k
    return None


def _unwrap_anydata(arg: list[Token]) -> list[Token]:
    """``anydata.convertCollection(x)`` / ``convertObject(x)`` → x: `ut.expect` reads any value."""
    if (
        len(arg) > 4
        and arg[0].kind == "word"
        and arg[0].upper in ("ANYDATA", "SYS.ANYDATA")
        and arg[1].is_op(".")
        and arg[2].kind == "word"
        and arg[2].upper in ("CONVERTCOLLECTION", "CONVERTOBJECT")
        and arg[3].is_op("(")
        and _closing(arg, 3) == len(arg) - 1
    ):
        return arg[4:-1]
    return arg


def _args(em: Emitter, toks: list[Token] | None, scope: Scope) -> list[str]:
    if not toks:
        return []
    out: list[str] = []
    for arg in split_top_level(toks):
        named = len(arg) > 2 and arg[1].is_op("=>")
        out += stmt_.call_args(em, arg[:2] + _unwrap_anydata(arg[2:]) if named else _unwrap_anydata(arg), scope)
    return out


def utplsql_call(em: Emitter, st: A.Call, scope: Scope, out: Out) -> bool:
    """Write a utPLSQL expectation or ut.fail (False: the call is not one, nothing written)."""
    start = _ut_start(st.name)
    if start is None or (start == 0 and em.catalog.lookup("ut") is not None):
        return False  # not utPLSQL's: the schema has an object named UT of its own
    rest = st.name[start + 2 :]
    original = exprs_.render(st.name) + (f"({exprs_.render(st.args)})" if st.args is not None else "")
    if len(rest) == 1 and rest[0].kind == "word" and rest[0].upper == "FAIL":
        if (off := em.rule_off("plsql.utplsql_expect", CONSTRUCT, original, st.line)) is not None:
            out.line(f"{off};")
            return True
        em.ctx.applied("plsql.utplsql_expect")
        out.line(f"PERFORM ut.fail({', '.join(_args(em, st.args, scope))});")
        return True
    if not (len(rest) > 2 and rest[0].kind == "word" and rest[0].upper == "EXPECT" and rest[1].is_op("(")):
        return False
    close = _closing(rest, 1)
    if close < 0:
        return False
    # the last method is the statement's own (name, args); the ones before it are in the name
    chain = _chain(rest[close + 1 :])
    if chain is None or not chain:
        return False
    last_name, _ = chain[-1]
    chain[-1] = (last_name, st.args)
    if (off := em.rule_off("plsql.utplsql_expect", CONSTRUCT, original, st.line)) is not None:
        out.line(f"{off};")
        return True
    matcher = _matcher(chain[0])
    if matcher is not None and matcher[0].endswith(("_be_within", "_be_within_pct")):
        # to_be_within(distance).of_(expected): one call with both
        if len(chain) != 2 or chain[1][0] != "of_" or not chain[1][1]:
            matcher = None
        else:
            matcher = (matcher[0], (matcher[1] or []) + [Token("op", ",", 0, 0)] + (chain[1][1] or []))
            chain = chain[:1]
    extra: list[str] = []
    why = None if matcher is not None else f"matcher .{chain[0][0]} is not implemented by the ut schema"
    fn0 = matcher[0] if matcher is not None else ""
    for name, margs in chain[1:] if matcher is not None else ():
        # `.unordered`: a cursor's rows (a collection's elements) in any order
        if name == "unordered" and not margs and fn0 in ("to_equal", "not_to_equal"):
            extra.append("a_unordered => true")
        # `.include('A,B')`, `.exclude(ut_varchar2_list('C'))`: the cursor columns compared
        elif name in ("include", "exclude") and margs and fn0 in ("to_equal", "not_to_equal"):
            extra.append(f"a_{name} => {_column_list(em, margs, scope)}")
        else:
            why = f"modifier .{name} is not implemented by the ut schema"
            break
    if matcher is None or why is not None:
        em.unconverted(CONSTRUCT, why or "", st.line)
        out.line(f"{unconverted_marker(CONSTRUCT, original)};")
        return True
    fn, margs = matcher
    expectation = f"ut.expect({', '.join(_args(em, rest[2:close], scope))})"
    em.ctx.applied("plsql.utplsql_expect")
    out.line(f"PERFORM ut.{fn}({', '.join([expectation] + _args(em, margs, scope) + extra)});")
    return True


def _column_list(em: Emitter, toks: list[Token], scope: Scope) -> str:
    """`include`/`exclude`'s argument as one comma-separated string: a string expression as it is,
    a `ut_varchar2_list('A', 'B')` of string literals joined."""
    names = [t for t in toks if t.kind == "word"]
    if (
        names
        and names[-1].upper == "UT_VARCHAR2_LIST"
        and all(t.kind in ("word", "string") or t.text in ".()," for t in toks)
    ):
        items = [string_value(t) or "" for t in toks if t.kind == "string"]
        return "'" + ",".join(i.replace("'", "''") for i in items) + "'"
    return ", ".join(stmt_.call_args(em, toks, scope))


def _matcher(method: tuple[str, list[Token] | None]) -> tuple[str, list[Token] | None] | None:
    """(ut function, its argument tokens) for the first method of a chain; None when unknown."""
    name, args = method
    if name in ("to_", "not_to"):
        # to_( equal(x) ), not_to( be_null ): the matcher is the argument
        if not args or args[0].kind != "word":
            return None
        inner = args[0].upper.lower()
        if inner not in MATCHERS:
            return None
        if len(args) == 1:
            return f"{name.rstrip('_')}_{inner}", None
        if args[1].is_op("(") and _closing(args, 1) == len(args) - 1:
            return f"{name.rstrip('_')}_{inner}", args[2:-1]
        return None
    for prefix in ("not_to_", "to_"):
        if name.startswith(prefix) and name[len(prefix) :] in MATCHERS:
            return name, args
    return None
