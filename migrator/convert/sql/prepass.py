"""Oracle syntax sqlglot's Oracle dialect cannot parse, rewritten on tokens before it parses.

sqlglot is compiled (mypyc): its parser cannot be subclassed, so a form it lacks is rewritten
here into a call sqlglot parses as an anonymous function, which a rule then converts. Each form is
rewritten only where its tokens say so; nothing is dropped (every argument stays in the call).

* ``TRANSLATE(expr USING CHAR_CS | NCHAR_CS)`` (character set conversion, not the three-argument
  TRANSLATE) → ``"TRANSLATE USING"(expr, 'CHAR_CS')``: a quoted name no Oracle function can have
  unquoted, converted by `strings.translate_using`.
"""

from __future__ import annotations

from migrator.source.lexer import LexError, Token, matching_paren, tokenize

TRANSLATE_USING = "TRANSLATE USING"


def rewrite(text: str) -> str:
    """`text` with the forms above rewritten (unchanged when it has none)."""
    if "USING" not in text.upper() or "TRANSLATE" not in text.upper():
        return text
    try:
        toks = tokenize(text)
    except LexError:
        return text
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement) in text offsets
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
    out = text
    for start, end, new in sorted(edits, reverse=True):
        out = out[:start] + new + out[end:]
    return out


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
