"""Strings a regular expression from the source matches, built to stress where Oracle and
PostgreSQL regular expressions differ: every `.` once as a newline (Oracle's `.` does not match
one without the 'n' match parameter; PostgreSQL's does by default) and once as a letter.

Deterministic: the first character of a class, one repetition of a `+`/`*`/`{m,n}` (the
minimum when it is more than one), the first branch of an alternation. Patterns the Python
parser (the standard library's `re` parser, close to both dialects for these constructs) cannot
read give nothing."""

from __future__ import annotations

import re

try:  # the parser behind `re`; the module was renamed in 3.11
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_parse

_META = re.compile(r"[\[\].+*?^$\\(){}|]")
# POSIX classes inside a bracket expression (Oracle's `[[:digit:]]`), which Python's parser
# would read as the characters `[`, `:`, `d`...: each becomes the same set in Python's syntax.
_POSIX = {
    "alpha": "A-Za-z", "digit": "0-9", "alnum": "0-9A-Za-z", "upper": "A-Z", "lower": "a-z",
    "space": r" \t\n\r\f\v", "blank": r" \t", "punct": r"!-/:-@\[-`{-~", "xdigit": "0-9A-Fa-f",
    "cntrl": r"\x00-\x1f\x7f", "print": r" -~", "graph": r"!-~",
}  # fmt: skip
_POSIX_CLASS = re.compile(r"\[:(" + "|".join(_POSIX) + r"):\]")
_CATEGORY = {"CATEGORY_DIGIT": "1", "CATEGORY_SPACE": " ", "CATEGORY_WORD": "a",
             "CATEGORY_NOT_DIGIT": "a", "CATEGORY_NOT_SPACE": "a", "CATEGORY_NOT_WORD": "-"}  # fmt: skip


def samples(pattern: str) -> list[str]:
    """Up to two strings `pattern` matches: `.` as a newline, and `.` as a letter."""
    if not _META.search(pattern) or len(pattern) > 200:
        return []
    pattern = _POSIX_CLASS.sub(lambda m: _POSIX[m.group(1)], pattern)
    try:
        tree = sre_parse.parse(pattern)
        out = [_build(tree, "\n"), _build(tree, "x")]
    except (re.error, ValueError, TypeError, RecursionError, KeyError):
        return []
    return list(dict.fromkeys(s for s in out if s is not None and s != pattern))


def _build(items, dot: str) -> str:
    return "".join(_item(op, av, dot) for op, av in items)


def _item(op, av, dot: str) -> str:
    name = str(op)
    if name == "LITERAL":
        return chr(av)
    if name == "ANY":
        return dot
    if name == "IN":
        return _class(av)
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        low, _high, sub = av
        return _build(sub, dot) * max(1, low)
    if name == "SUBPATTERN":
        return _build(av[-1], dot)
    if name == "BRANCH":
        return _build(av[1][0], dot)
    if name in ("AT", "ASSERT", "ASSERT_NOT"):
        return ""
    raise ValueError(f"unsupported regex construct {name}")


def _class(members) -> str:
    for op, av in members:
        name = str(op)
        if name == "LITERAL":
            return chr(av)
        if name == "RANGE":
            return chr(av[0])
        if name == "CATEGORY":
            return _CATEGORY.get(str(av), "a")
        if name == "NEGATE":
            return "!"
    return "a"
