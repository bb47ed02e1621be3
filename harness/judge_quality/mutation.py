"""Mutants of converted PostgreSQL code, to test the judge itself.

A `correct` unit is mutated in ways that change behaviour (a constant, a comparison, an exception
handler, a NOTICE, a sort order); the scenarios should catch each mutant. A mutant that behaves
identically on every scenario is a gap in the scenarios, not a success. Mutations work on
PostgreSQL's own tokens (pglast's scanner), inside dollar-quoted bodies too, so strings and
comments are never touched.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pglast.parser import scan


@dataclass(frozen=True)
class Tok:
    start: int  # absolute offsets in the unit text, end exclusive
    end: int
    name: str
    text: str


@dataclass(frozen=True)
class Mutant:
    operator: str  # constant | comparison | handler | notice | order_by
    description: str
    text: str
    # why no input can tell this mutant from the original (counted apart, never as caught or
    # survived); empty when it may differ
    equivalent: str = ""


def tokens(text: str, base: int = 0) -> list[Tok]:
    """Tokens of `text`; a dollar-quoted string is replaced by the tokens of its body."""
    out: list[Tok] = []
    for t in scan(text):
        raw = text[t.start : t.end + 1]
        if t.name == "SCONST" and raw.startswith("$"):
            tag_end = raw.index("$", 1) + 1
            body = raw[tag_end : len(raw) - tag_end]
            out += tokens(body, base + t.start + tag_end)
            continue
        out.append(Tok(base + t.start, base + t.end + 1, t.name, raw))
    return out


def _replace(text: str, tok: Tok, new: str) -> str:
    return text[: tok.start] + new + text[tok.end :]


_COMPARISON_TOKENS = {"ASCII_60", "ASCII_62", "LESS_EQUALS", "GREATER_EQUALS", "NOT_EQUALS", "ASCII_61"}
_SWAPS = {"<": ">=", ">": "<=", "<=": ">", ">=": "<", "=": "<>", "<>": "="}
_COMPARISON_NAMES = {"ASCII_60": "<", "ASCII_62": ">", "LESS_EQUALS": "<=", "GREATER_EQUALS": ">=", "NOT_EQUALS": "<>"}


SUBSTR_START = (
    "SUBSTR counts a start position of 0 as 1 (Oracle's rule, which oracompat.substr implements): "
    "the start 0 made 1 reads the same characters"
)


def _argument(toks: list[Tok], i: int) -> tuple[str, int] | None:
    """(the called function's name, lower case and schema-qualified as written, the argument's
    0-based position) when toks[i] is a whole argument of a call, else None."""
    if i + 1 >= len(toks) or toks[i + 1].text not in (",", ")") or not i or toks[i - 1].text not in (",", "("):
        return None
    depth, commas = 0, 0
    for k in range(i - 1, -1, -1):
        text = toks[k].text
        if text == ")":
            depth += 1
        elif text == "(":
            if depth == 0:
                name = [toks[k - 1].text.lower()] if k else []
                if k >= 3 and toks[k - 2].text == ".":
                    name.insert(0, toks[k - 3].text.lower() + ".")
                return "".join(name), commas
            depth -= 1
        elif text == "," and depth == 0:
            commas += 1
    return None


ROWCOUNT_START = (
    "the initial value of the converter's SQL%ROWCOUNT variable is never read: every read of "
    "sql__rowcount directly follows a GET DIAGNOSTICS that sets it (no branch or block between)"
)
_ROWCOUNT = "sql__rowcount"
# Where control can enter between two statements (a branch, a loop's body, a handler, a block):
# a read after one of them may run without the statement before it.
_SET_ROWCOUNT = ["GET", "DIAGNOSTICS", _ROWCOUNT.upper(), "=", "ROW_COUNT"]
_ENTRY = {"THEN", "ELSE", "ELSIF", "WHEN", "LOOP", "BEGIN", "DECLARE", "END", "EXCEPTION", "<<"}


def _rowcount_start(toks: list[Tok], i: int) -> bool:
    """Whether toks[i] is the initializer of a `sql__rowcount integer := <n>` declaration in a
    text where every other use of sql__rowcount is set by GET DIAGNOSTICS or read in the
    statement right after one (straight-line: no branch, loop head or block between them)."""
    if i < 3 or toks[i - 3].text.lower() != _ROWCOUNT or toks[i - 1].text != ":=":
        return False
    for k, t in enumerate(toks):
        if t.text.lower() != _ROWCOUNT or k == i - 3:
            continue
        if k >= 2 and toks[k - 1].text.upper() == "DIAGNOSTICS" and toks[k - 2].text.upper() == "GET":
            continue
        if k + 4 < len(toks) and [x.text for x in toks[k + 1 : k + 3]] == ["integer", ":="]:
            if toks[k + 3].name == "ICONST" and toks[k + 4].text == ";":  # another declaration
                continue
            return False
        j = k - 1
        while j >= 0 and toks[j].text != ";" and toks[j].text.upper() not in _ENTRY:
            j -= 1
        if j < 0 or toks[j].text != ";":
            return False
        # the statement that `;` ends: GET DIAGNOSTICS sql__rowcount = ROW_COUNT
        if [x.text.upper() for x in toks[max(0, j - 5) : j]] != _SET_ROWCOUNT:
            return False
    return True


IGNORED_ARGUMENT = (
    "the oracompat runtime ignores this argument (DBMS_LOB.CREATETEMPORARY's cache and duration: a "
    "PostgreSQL text or bytea value is no LOB locator and has neither): any value gives the same result"
)
# (function as the converted code calls it, 0-based argument position) whose value the oracompat
# implementation never reads
_IGNORED_ARGUMENTS = {("oracompat.dbms_lob_createtemporary", 1), ("oracompat.dbms_lob_createtemporary", 2)}

UNREAD_LEVEL = (
    "the level a converted CONNECT BY counts (cb_level) is read nowhere in its statement (no LEVEL in "
    "the Oracle query, no `*` over the walk): counting from another number changes no value the "
    "statement returns"
)


def _constants(text: str, toks: list[Tok]) -> Iterator[Mutant]:
    for i, t in enumerate(toks):
        if t.name in ("ICONST", "FCONST"):
            arg = _argument(toks, i)
            why = SUBSTR_START if t.text == "0" and arg == ("oracompat.substr", 1) else ""
            why = why or (ROWCOUNT_START if _rowcount_start(toks, i) else "")
            why = why or (IGNORED_ARGUMENT if arg in _IGNORED_ARGUMENTS else "")
            why = why or (UNREAD_LEVEL if _unread_level(toks, i) else "")
            yield Mutant("constant", f"{t.text} -> {t.text}+1 at {t.start}", _replace(text, t, f"({t.text} + 1)"), why)


def _statement(toks: list[Tok], i: int) -> tuple[int, int]:
    """The token range [start, end) of the statement holding toks[i]: between the `;` before it
    and the `;` after it (a PL/pgSQL statement, or one of a dollar-quoted body's)."""
    start = next((k + 1 for k in range(i - 1, -1, -1) if toks[k].name == "ASCII_59"), 0)
    end = next((k for k in range(i + 1, len(toks)) if toks[k].name == "ASCII_59"), len(toks))
    return start, end


def _unread_level(toks: list[Tok], i: int) -> bool:
    """Whether toks[i] is the start (`1 AS cb_level`) or the step (`prior_row.cb_level + 1`) of a
    converted CONNECT BY's level, in a statement that reads cb_level nowhere else and selects no
    `*` from the walk (after the recursive CTE's closing parenthesis, only COUNT(*))."""
    start = i + 1 < len(toks) and toks[i].text == "1" and toks[i + 1].name == "AS"
    start = start and i + 2 < len(toks) and toks[i + 2].text.lower() == "cb_level"
    step = i >= 3 and toks[i].text == "1" and toks[i - 1].text == "+" and toks[i - 2].text.lower() == "cb_level"
    step = step and toks[i - 3].text == "."
    if not (start or step):
        return False
    lo, hi = _statement(toks, i)
    uses = [k for k in range(lo, hi) if toks[k].text.lower() == "cb_level"]
    if len(uses) != 2:
        return False
    # the CTE: `connect_by AS (` ... its matching `)`
    open_at = next((k + 2 for k in range(lo, hi - 2) if toks[k].text.lower() == "connect_by"
                    and toks[k + 1].name == "AS" and toks[k + 2].text == "("), None)  # fmt: skip
    if open_at is None or not open_at < uses[0]:
        return False
    depth, close = 0, None
    for k in range(open_at, hi):
        if toks[k].text == "(":
            depth += 1
        elif toks[k].text == ")":
            depth -= 1
            if depth == 0:
                close = k
                break
    if close is None or uses[1] > close:
        return False
    stars = [k for k in range(close, hi) if toks[k].text == "*"]
    return all(toks[k - 1].text == "(" and toks[k + 1].text == ")" and toks[k - 2].text.lower() == "count"
               for k in stars)  # fmt: skip


# Tokens that bind less tightly than a comparison (or end the expression): a NULL literal
# between one of them and the operator is that operand entire, not part of `NULL || x`.
_BEFORE_OPERAND = {"(", ",", ";", "WHERE", "AND", "OR", "NOT", "WHEN", "IF", "ELSIF", "THEN", "ELSE", "HAVING",
                   "ON", "SELECT", "RETURN", "WHILE", "CASE", "UNTIL"}  # fmt: skip
_AFTER_OPERAND = {")", ",", ";", "AND", "OR", "NOT", "THEN", "ELSE", "END", "WHEN", "LOOP", "IS", "ISNULL",
                  "NOTNULL", "FROM", "INTO", "ORDER", "GROUP", "HAVING", "LIMIT", "UNION", "AS"}  # fmt: skip
NULL_COMPARISON = (
    "a comparison with the NULL literal is NULL whatever the other operand (the built-in comparison "
    "operators are strict; transform_null_equals is off): another comparison with it is NULL too"
)


# Where a condition starts: the `=` found after one of these (at the same depth) compares;
# after SET, or at the start of a statement, it may assign (`SET x = NULL`, PL/pgSQL's `x = 1;`).
_CONDITION_START = {"WHERE", "AND", "OR", "NOT", "WHEN", "IF", "ELSIF", "ON", "HAVING", "RETURN", "WHILE", "UNTIL",
                    "SELECT", "(", ","}  # fmt: skip
_NOT_A_CONDITION = {"SET", ";", "BEGIN", "THEN", "LOOP", "ELSE", "DECLARE", "DEFAULT"}


def _in_condition(toks: list[Tok], i: int) -> bool:
    depth = 0
    for k in range(i - 1, -1, -1):
        text = toks[k].text.upper()
        if text == ")":
            depth += 1
        elif text == "(" and depth:
            depth -= 1
        elif depth == 0 and text in _NOT_A_CONDITION:
            return False
        elif depth == 0 and text in _CONDITION_START:
            # an argument list `f(a, b = NULL)` or an UPDATE's `SET a = 1, b = NULL`: look further
            if text == "," or (text == "(" and k and toks[k - 1].name not in ("ASCII_40", "ASCII_44")):
                continue
            return True
    return False


def _after_null(toks: list[Tok], k: int) -> int:
    """The index after the NULL literal at toks[k] and its cast to a one-word type, if any
    (`NULL::numeric`, `NULL::varchar(40)`: still NULL)."""
    k += 1
    if k + 1 < len(toks) and toks[k].name == "TYPECAST":
        k += 2
        if k < len(toks) and toks[k].text == "(":
            while k < len(toks) and toks[k].text != ")":
                k += 1
            k += 1
    return k


def _null_operand(toks: list[Tok], i: int) -> bool:
    """Whether one operand of the comparison at toks[i] is the bare NULL literal, in a condition."""
    right = i + 1 < len(toks) and toks[i + 1].name == "NULL_P"
    after = _after_null(toks, i + 1)
    right = right and (toks[after].text.upper() if after < len(toks) else ";") in _AFTER_OPERAND
    left = i >= 1 and toks[i - 1].name == "NULL_P"
    left = left and (toks[i - 2].text.upper() if i >= 2 else ";") in _BEFORE_OPERAND
    return (right or left) and _in_condition(toks, i)


def _comparisons(text: str, toks: list[Tok]) -> Iterator[Mutant]:
    for i, t in enumerate(toks):
        op = _COMPARISON_NAMES.get(t.name) or (t.text if t.name == "ASCII_61" else None)
        if op and op in _SWAPS:
            yield Mutant("comparison", f"{op} -> {_SWAPS[op]} at {t.start}", _replace(text, t, _SWAPS[op]),
                         NULL_COMPARISON if _null_operand(toks, i) else "")  # fmt: skip


def _handlers(text: str, toks: list[Tok]) -> Iterator[Mutant]:
    """`WHEN <conditions> THEN` after EXCEPTION → a condition nothing raises (handler dropped)."""
    in_handlers = False
    for i, t in enumerate(toks):
        upper = t.text.upper()
        if upper == "EXCEPTION" and t.name == "IDENT":
            in_handlers = True
        elif in_handlers and t.name == "WHEN":
            j = next((k for k in range(i + 1, len(toks)) if toks[k].name == "THEN"), None)
            if j is None:
                continue
            cond = text[toks[i + 1].start : toks[j - 1].end]
            new = text[: toks[i + 1].start] + "SQLSTATE 'ZZ999'" + text[toks[j - 1].end :]
            yield Mutant("handler", f"handler WHEN {cond} dropped", new)
        elif t.name in ("BEGIN_P", "DECLARE"):
            in_handlers = False


def _notices(text: str, toks: list[Tok]) -> Iterator[Mutant]:
    for i, t in enumerate(toks[:-1]):
        if t.text.upper() == "RAISE" and toks[i + 1].text.upper() == "NOTICE":
            j = next((k for k in range(i, len(toks)) if toks[k].name == "ASCII_59"), None)
            if j is not None:
                yield Mutant(
                    "notice", f"RAISE NOTICE at {t.start} removed", text[: t.start] + "NULL" + text[toks[j].start :]
                )


def _order_by(text: str, toks: list[Tok]) -> Iterator[Mutant]:
    """Flip the direction of the first sort key of each ORDER BY."""
    for i, t in enumerate(toks[:-1]):
        if t.name != "ORDER" or toks[i + 1].name != "BY":
            continue
        depth, k = 0, i + 2
        while k < len(toks):
            n = toks[k].name
            if n == "ASCII_40":
                depth += 1
            elif n == "ASCII_41":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and (
                n in ("ASCII_44", "ASCII_59", "LIMIT", "OFFSET", "FETCH", "ASC", "DESC", "NULLS_P", "NULLS_LA")
                or n in ("FOR", "INTO")
                or toks[k].text.upper() == "LOOP"  # PL/pgSQL's FOR ... IN query LOOP: an identifier to the scanner
            ):
                break
            k += 1
        last = toks[k - 1]
        follow = toks[k].name if k < len(toks) else ""
        if follow == "DESC":
            new = _replace(text, toks[k], "ASC")
        elif follow == "ASC":
            new = _replace(text, toks[k], "DESC")
        else:
            new = text[: last.end] + " DESC" + text[last.end :]
        why = NO_ROWS if _no_rows(toks, i) else (ONE_ROW if _into_strict(toks, i) else "")
        why = why or (FIXED_KEY if k == i + 2 + len(_key(toks, i)) and _fixed_key(toks, i) else "")
        why = why or (UNORDERED_VIEW if _unordered_walk_view(toks, i) else "")
        yield Mutant("order_by", f"ORDER BY at {t.start} reversed", new, why)


FIXED_KEY = (
    "the sort key is a column the query's WHERE sets equal to one value (`WHERE br.code = p_root`, no "
    "OR): every row it sorts has the same non-NULL key, so the sort finds every pair equal in either "
    "direction"
)


def _key(toks: list[Tok], i: int) -> list[Tok]:
    """The first sort key of the ORDER BY at toks[i] when it is a column (`a.c` or `c`), else []."""
    k = i + 2
    if k + 2 < len(toks) and toks[k].name == "IDENT" and toks[k + 1].text == "." and toks[k + 2].name == "IDENT":
        return toks[k : k + 3]
    return toks[k : k + 1] if k < len(toks) and toks[k].name == "IDENT" else []


def _fixed_key(toks: list[Tok], i: int) -> bool:
    """Whether the single column the ORDER BY at toks[i] sorts by (inside a window's OVER (...)
    or a query's own) is set equal to something by a conjunct of the WHERE of the query that
    holds the sort, at that query's own level, with no OR there."""
    key = [t.text.lower() for t in _key(toks, i)]
    lo, hi = _statement(toks, i)
    if not key or (len(key) == 1 and any(toks[k].name == "AS" and toks[k + 1].text.lower() == key[0]
                                         for k in range(lo, hi - 1))):  # fmt: skip
        return False  # (an output column's alias: not the column the WHERE names)
    k = i - 1
    window = k >= 1 and toks[k].text == "(" and toks[k - 1].name == "OVER"
    if window:  # a window: the query whose select list holds it
        k -= 2
    for j in _back_at_level(toks, k):  # back to the SELECT of the query the sort belongs to
        if toks[j].name == "SELECT":
            return (window or not _set_operation(toks, j)) and _fixed_in(toks, j, key)
        if toks[j].name == "ASCII_59" or toks[j].text.upper() in ("UNION", "INTERSECT", "EXCEPT"):
            return False  # (a sort of a whole UNION: each branch has a WHERE of its own)
    return False


def _back_at_level(toks: list[Tok], k: int) -> Iterator[int]:
    """The positions from k back to 0 of the tokens at toks[k]'s bracket level (what a nested
    bracket holds is skipped), up to the `(` that opens that level."""
    depth = 0
    for j in range(k, -1, -1):
        text = toks[j].text
        if text == ")":
            depth += 1
        elif text == "(":
            if depth == 0:
                return
            depth -= 1
        elif depth == 0:
            yield j


def _set_operation(toks: list[Tok], k: int) -> bool:
    """Whether the SELECT at toks[k] is a later branch of a UNION / INTERSECT / EXCEPT (whose
    ORDER BY sorts every branch's rows)."""
    for j in _back_at_level(toks, k - 1):
        if toks[j].name == "ASCII_59":
            return False
        if toks[j].text.upper() in ("UNION", "INTERSECT", "EXCEPT"):
            return True
    return False


def _fixed_in(toks: list[Tok], start: int, key: list[str]) -> bool:
    """From the SELECT at toks[start]: its WHERE (at its level) ANDs `key = ...` or `... = key`,
    and has no OR."""
    depth, where, found = 0, False, False
    ends = {"UNION", "INTERSECT", "EXCEPT", "ORDER", "GROUP", "HAVING", "LIMIT", "WINDOW", "INTO"}
    for k in range(start + 1, len(toks)):
        t = toks[k]
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (t.name == "ASCII_59" or t.text.upper() in ends or t.text.upper() == "LOOP"):
            break
        elif depth == 0 and t.name == "WHERE":
            where = True
        elif depth == 0 and where and t.name == "OR":
            return False
        elif depth == 0 and where and t.text == "=":
            n = len(key)
            left = [x.text.lower() for x in toks[k - n : k]]
            right = [x.text.lower() for x in toks[k + 1 : k + 1 + n]]
            after = toks[k + 1 + n].text.upper() if k + 1 + n < len(toks) else ";"
            before = toks[k - n - 1].text.upper() if k - n - 1 >= 0 else ";"
            if (left == key and before in ("WHERE", "AND", "(")) or (right == key and after in ("AND", ")", ";")):
                found = True
    return found


UNORDERED_VIEW = (
    "the sort a converted CONNECT BY view gives its rows (cb_sort) where the Oracle view orders none "
    "(no ORDER BY, no ORDER SIBLINGS BY: every cb_sort number is ROW_NUMBER() OVER ()): Oracle fixes "
    "no order for a view's rows, which are compared as a multiset, the same in any order"
)


def _unordered_walk_view(toks: list[Tok], i: int) -> bool:
    """Whether the ORDER BY at toks[i] is the last sort of a CREATE VIEW, by `<alias>.cb_sort`
    alone, outside every parenthesis, in a view whose every ROW_NUMBER() is OVER ()."""
    lo, hi = _statement(toks, i)
    lo = next((k for k in range(lo, hi) if toks[k].name not in ("SQL_COMMENT", "C_COMMENT")), hi)
    if lo >= hi or toks[lo].name != "CREATE" or not any(toks[k].name == "VIEW" for k in range(lo, min(hi, lo + 6))):
        return False
    key = [t.text.lower() for t in _key(toks, i)]
    if len(key) != 3 or key[2] != "cb_sort" or i + 5 != hi:
        return False
    depth = 0
    for k in range(lo, i):
        if toks[k].text == "(":
            depth += 1
        elif toks[k].text == ")":
            depth -= 1
        if toks[k].name == "OVER" and (k + 2 >= hi or toks[k + 1].text != "(" or toks[k + 2].text != ")"):
            return False
    return depth == 0


ONE_ROW = (
    "the sort of a SELECT ... INTO STRICT (no LIMIT): it stores its one row, and with none or more "
    "than one it raises the same error whatever their order"
)


def _into_strict(toks: list[Tok], i: int) -> bool:
    """Whether the ORDER BY at toks[i] sorts a statement's own query (outside every parenthesis)
    that stores its result INTO STRICT and keeps all of its rows (no LIMIT, OFFSET or FETCH)."""
    lo, hi = _statement(toks, i)
    depth = 0
    for k in range(i - 1, lo - 1, -1):
        if toks[k].text == ")":
            depth += 1
        elif toks[k].text == "(":
            if depth == 0:
                return False  # a subquery's or a window's sort
            depth -= 1
    level: list[Tok] = []
    depth = 0
    for k in range(lo, hi):
        if toks[k].text == "(":
            depth += 1
        elif toks[k].text == ")":
            depth -= 1
        elif depth == 0:
            level.append(toks[k])
    names = [t.name for t in level]
    strict = any(a.name == "INTO" and b.text.upper() == "STRICT" for a, b in zip(level, level[1:]))
    return strict and not {"LIMIT", "OFFSET", "FETCH"} & set(names)


NO_ROWS = (
    "the query's WHERE is a conjunction with a comparison with the NULL literal (never true): it returns "
    "no rows, in any order"
)


def _no_rows(toks: list[Tok], i: int) -> bool:
    """Whether the query whose ORDER BY is at toks[i] has a WHERE, at its own level, that ANDs a
    comparison with the bare NULL literal and has no OR (e.g. a view made only for its row type)."""
    depth, k = 0, i - 1
    while k >= 0:
        text = toks[k].text.upper()
        if text == ")":
            depth += 1
        elif text == "(":
            if depth == 0:
                return False
            depth -= 1
        elif depth == 0 and text in (";", "UNION", "INTERSECT", "EXCEPT", "FROM", "SELECT"):
            return False
        elif depth == 0 and text == "WHERE":
            break
        k -= 1
    if k < 0:
        return False
    found = False
    depth = 0
    for j in range(k + 1, i):
        text = toks[j].text.upper()
        if text in ("(", ")"):
            depth += 1 if text == "(" else -1
        elif depth == 0 and text == "OR":
            return False
        elif depth == 0 and toks[j].name in _COMPARISON_TOKENS and _null_operand(toks, j):
            found = True
    return found


OPERATORS = (_constants, _comparisons, _handlers, _notices, _order_by)


def mutants(text: str, per_operator: int = 2) -> list[Mutant]:
    """Up to `per_operator` mutants per operator (the first and the last site)."""
    try:
        toks = tokens(text)
    except Exception:  # text the scanner cannot read has nothing we can mutate safely
        return []
    result: list[Mutant] = []
    for op in OPERATORS:
        found = list(op(text, toks))
        picked = found if len(found) <= per_operator else [found[0], found[-1]][:per_operator]
        result += picked
    return result
