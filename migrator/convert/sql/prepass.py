"""Oracle syntax sqlglot's Oracle dialect cannot parse, rewritten on tokens before it parses.

sqlglot is compiled (mypyc): its parser cannot be subclassed, so a form it lacks is rewritten
here into a call sqlglot parses as an anonymous function, which a rule then converts. Each form is
rewritten only where its tokens say so; nothing is dropped (every argument stays in the call).

* ``TRANSLATE(expr USING CHAR_CS | NCHAR_CS)`` (character set conversion, not the three-argument
  TRANSLATE) → ``"TRANSLATE USING"(expr, 'CHAR_CS')``: a quoted name no Oracle function can have
  unquoted, converted by `strings.translate_using`.
* ``x [NOT] MEMBER [OF] coll`` (membership in a nested table or VARRAY) → ``[NOT] "MEMBER OF"(x,
  coll)``, converted by `strings.member_of`, where x's extent is plain (see `_BEFORE_CONDITION`).
"""

from __future__ import annotations

from migrator.source.lexer import NAME_KINDS, NUMBER, STRING, TRIVIA_KINDS, LexError, Token, matching_paren, tokenize

TRANSLATE_USING = "TRANSLATE USING"
MEMBER_OF = "MEMBER OF"


def rewrite(text: str) -> str:
    """`text` with the forms above rewritten (unchanged when it has none)."""
    upper = text.upper()
    translate = "USING" in upper and "TRANSLATE" in upper
    if not translate and "MEMBER" not in upper:
        return text
    try:
        toks = [t for t in tokenize(text) if t.kind not in TRIVIA_KINDS]
    except LexError:
        return text
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement) in text offsets
    if "MEMBER" in upper:
        edits += _member_of(toks, text)
    if not translate:
        return _apply(text, edits)
    for k, tok in enumerate(toks[:-1]):
        if not (tok.is_word("TRANSLATE") and toks[k + 1].is_op("(")):
            continue
        close = matching_paren(toks, k + 1)
        using = _using_at_depth(toks, k + 2, close)
        if using is None or using + 2 != close or not toks[using + 1].is_word("CHAR_CS", "NCHAR_CS"):
            continue
        charset = toks[using + 1].text.upper()
        edits.append((tok.start, tok.end, f'"{TRANSLATE_USING}"'))
        edits.append((toks[using].start, toks[using + 1].end, f", '{charset}'"))
    return _apply(text, edits)


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    out = text
    for start, end, new in sorted(edits, reverse=True):
        out = out[:start] + new + out[end:]
    return out


# What may stand right before a condition's left operand: the condition is then `left [NOT] MEMBER
# [OF] right` and nothing else binds `left` (an operand after `||` or `+` belongs to that operator
# first, and such a condition is left to sqlglot, which reports it).
_BEFORE_CONDITION = frozenset(
    {
        "(",
        ",",
        "AND",
        "OR",
        "NOT",
        "WHEN",
        "WHERE",
        "IF",
        "ELSIF",
        "THEN",
        "ELSE",
        "RETURN",
        ":=",
        "SELECT",
        "ON",
        "HAVING",
        "WHILE",
    }
)


def _member_of(toks: list[Token], text: str) -> list[tuple[int, int, str]]:
    """``x [NOT] MEMBER [OF] coll`` → ``[NOT] "MEMBER OF"(x, coll)``: x a name, literal or
    parenthesised expression (a call too), coll a name or a call."""
    edits = []
    n = len(toks)
    for k, tok in enumerate(toks):
        if not tok.is_word("MEMBER") or k == 0:
            continue
        r = k + 2 if k + 1 < n and toks[k + 1].is_word("OF") else k + 1
        if r >= n or toks[r].kind not in NAME_KINDS:
            continue
        r_end = r
        while r_end + 2 < n and toks[r_end + 1].is_op(".") and toks[r_end + 2].kind in NAME_KINDS:
            r_end += 2
        if r_end + 1 < n and toks[r_end + 1].is_op("("):
            r_end = matching_paren(toks, r_end + 1)
        left_end = k - 1
        negated = toks[left_end].is_word("NOT")
        if negated:
            left_end -= 1
        left = _operand_start(toks, left_end)
        if left is None:
            continue
        before = toks[left - 1] if left > 0 else None
        if before is not None and before.text.upper() not in _BEFORE_CONDITION:
            continue
        lhs = text[toks[left].start : toks[left_end].end]
        rhs = text[toks[r].start : toks[r_end].end]
        call = f'"{MEMBER_OF}"({lhs}, {rhs})'
        edits.append((toks[left].start, toks[r_end].end, ("NOT " if negated else "") + call))
    return edits


def _operand_start(toks: list[Token], end: int) -> int | None:
    """The first token of the operand ending at toks[end] (a name chain, a literal, a call or a
    parenthesised expression), None when it is none of these."""
    if end < 0:
        return None
    i = end
    if toks[i].is_op(")"):
        depth = 0
        while i >= 0:
            if toks[i].is_op(")"):
                depth += 1
            elif toks[i].is_op("("):
                depth -= 1
                if depth == 0:
                    break
            i -= 1
        if i < 0:
            return None
        if i > 0 and toks[i - 1].kind in NAME_KINDS and not toks[i - 1].is_word(*_KEYWORDS):
            i -= 1  # a call: its name
        else:
            return i
    elif toks[i].kind in (STRING, NUMBER):
        return i
    elif toks[i].kind not in NAME_KINDS or toks[i].is_word(*_KEYWORDS):
        return None
    while i >= 2 and toks[i - 1].is_op(".") and toks[i - 2].kind in NAME_KINDS:
        i -= 2
    return i


_KEYWORDS = ("AND", "OR", "NOT", "WHEN", "WHERE", "IF", "ELSIF", "THEN", "ELSE", "RETURN", "SELECT", "IN")


def _using_at_depth(toks: list[Token], i: int, end: int) -> int | None:
    """The index of USING among toks[i:end] outside any inner parentheses."""
    while i < end:
        if toks[i].is_op("("):
            i = matching_paren(toks, i) + 1
            continue
        if toks[i].is_word("USING"):
            return i
        i += 1
    return None
