"""Oracle's datetime format models for TO_CHAR, element by element (rule expr.format_model).

Oracle SQL Language Reference, "Format Models" → "Datetime Format Models" and "Format Model
Modifiers". Where PostgreSQL's to_char template differs from Oracle's model with the same letters:

- FM is a *toggle* in Oracle: it switches fill mode on for every later element, and a second FM
  switches it off again. PostgreSQL's FM affects only the element right after it. So 'FMDay DD
  Month' is 'Tuesday 5 March' in Oracle, 'Tuesday 05 March    ' in PostgreSQL.
- The case of a word element follows the element: 'DAY' → MONDAY, 'Day' → Monday, 'day' → monday
  (first letter lower: all lower; first two upper: all upper; else capitalised). PostgreSQL knows
  only the three canonical spellings, so 'DaY' is normalised to the spelling Oracle's rule picks.
- SYYYY / SCC print a sign position: a blank for AD years (none in fill mode).
- X is the radix character ('.'), FF without digits is the type's precision (6 here), FF7-FF9
  print zeros past microseconds (PostgreSQL keeps microseconds), RR / RRRR print the year.
- SP, SPTH / THSP spell a number out ('DDSP' → FIVE, 'DdSPTH' → Fifth): PostgreSQL has no
  template for it, so the element becomes a call of oracompat.spell_number on the element's value.

A model is compiled into pieces: PostgreSQL template text (each element prefixed with FM where
Oracle's fill mode is on) and spelled elements; `to_char_expression` joins them. A model known only
at run time goes through oracompat.datetime_format, which compiles the same way in PL/pgSQL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Oracle's datetime elements, longest first so that 'DDD' is not read as 'DD' + 'D'.
_ELEMENTS = (
    "SYYYY", "SYEAR", "MONTH", "Y,YYY", "A.M.", "P.M.", "A.D.", "B.C.", "SSSSS", "HH24", "HH12", "YYYY",
    "RRRR", "IYYY", "YEAR", "YYY", "IYY", "DDD", "DAY", "SCC", "TZH", "TZM", "TZR", "TZD", "MON",
    "FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "FF7", "FF8", "FF9",
    "YY", "RR", "IY", "CC", "MM", "RM", "WW", "IW", "DD", "DY", "HH", "MI", "SS", "FF", "AM", "PM",
    "AD", "BC", "DL", "DS", "TS", "EE", "FM", "FX",
    "Y", "I", "Q", "W", "D", "J", "X", "E",
)  # fmt: skip
_ELEMENT = re.compile("|".join(re.escape(e) for e in _ELEMENTS), re.I)
# suffixes of a number element: spelled out, ordinal, or both (SPTH and THSP are the same)
_SUFFIX = re.compile(r"SPTH|THSP|SP|TH", re.I)

# word elements: PostgreSQL spells them in these three cases only
_WORDS = frozenset({"MONTH", "MON", "DAY", "DY", "RM", "AM", "PM", "A.M.", "P.M.", "AD", "BC", "A.D.", "B.C."})
# number elements that FM strips of leading zeros (J, SSSSS and the FFn keep their width here too)
_NUMBERS = frozenset({
    "YYYY", "RRRR", "IYYY", "YYY", "IYY", "YY", "RR", "IY", "Y", "I", "CC", "SCC", "Q", "MM", "WW", "W",
    "IW", "DDD", "DD", "D", "J", "HH", "HH12", "HH24", "MI", "SS", "SSSSS", "SYYYY", "Y,YYY",
})  # fmt: skip
# elements with no counterpart here: converting them would guess
UNSUPPORTED = {
    "SYEAR": "spelled-out year (YEAR) has no PostgreSQL template pattern",
    "YEAR": "spelled-out year (YEAR) has no PostgreSQL template pattern",
    "TZR": "time zone region (TZR) has no PostgreSQL template pattern",
    "TZD": "daylight-saving abbreviation (TZD) has no PostgreSQL template pattern",
    "DL": "the long date format (DL) depends on NLS settings",
    "DS": "the short date format (DS) depends on NLS settings",
    "TS": "the short time format (TS) depends on NLS settings",
    "E": "era names (E, EE) belong to non-Gregorian calendars",
    "EE": "era names (E, EE) belong to non-Gregorian calendars",
}


@dataclass(frozen=True)
class Computed:
    """An element PostgreSQL's template cannot print: `template` gives its number, `how` is
    'spell' (SP), 'spellth' (SPTH) or 'pad5' (SSSSS: five digits, PostgreSQL's SSSS has no
    leading zeros); `case` is 'U', 'L' or 'I' (upper, lower, capitalised) for spelled words."""

    template: str
    how: str
    case: str = "U"


Piece = str | Computed


def word_case(element_text: str) -> str:
    """Oracle's capitalisation of a word element: 'U', 'L' or 'I'."""
    letters = [c for c in element_text if c.isalpha()]
    if not letters or letters[0].islower():
        return "L"
    if len(letters) > 1 and letters[1].islower():
        return "I"
    return "U"


def _cased_word(up: str, case: str) -> str:
    """The PostgreSQL spelling of a word element in the case Oracle prints it."""
    if case == "L":
        return up.lower()
    if case == "I" and up in ("MONTH", "MON", "DAY", "DY"):
        return up.capitalize()
    return up  # PostgreSQL has no capitalised AM / BC / RM: Oracle prints those in upper case too


def compile_model(model: str) -> tuple[list[Piece], str | None]:
    """An Oracle datetime format model → (pieces, problem-or-None)."""
    pieces: list[Piece] = []
    text: list[str] = []
    fm = False
    i = 0
    while i < len(model):
        ch = model[i]
        if ch == '"':
            end = model.find('"', i + 1)
            end = len(model) if end < 0 else end + 1
            text.append(model[i:end] if model[i:end].endswith('"') and end > i + 1 else model[i:end] + '"')
            i = end
            continue
        m = _ELEMENT.match(model, i)
        if m is None:
            # punctuation and blanks are printed as they are; PostgreSQL reads letters as
            # patterns, so anything else is quoted
            text.append(ch if not ch.isalnum() and ch != "\\" else f'"{ch}"')
            i += 1
            continue
        raw, up = m.group(0), m.group(0).upper()
        i = m.end()
        if up == "FM":
            fm = not fm
            continue
        if up == "FX":
            continue  # exact matching applies to TO_DATE only
        if up in UNSUPPORTED:
            return [], UNSUPPORTED[up]
        suffix = ""
        if up in _NUMBERS and (s := _SUFFIX.match(model, i)):
            suffix = s.group(0)
            i = s.end()
        if suffix.upper() in ("SP", "SPTH", "THSP"):
            if text:
                pieces.append("".join(text))
                text = []
            number = {"RRRR": "YYYY", "RR": "YY", "SYYYY": "YYYY", "SCC": "CC", "Y,YYY": "YYYY"}.get(up, up)
            how = "spell" if suffix.upper() == "SP" else "spellth"
            pieces.append(Computed(f"FM{number}", how, word_case(raw)))
            continue
        if up == "SSSSS" and not fm:
            if text:
                pieces.append("".join(text))
                text = []
            pieces.append(Computed("SSSS", "pad5"))
            if suffix:
                text.append(f'"{suffix}"')  # an ordinal of seconds past midnight: printed as written
            continue
        text.append(_element(raw, up, fm) + suffix)
    if text:
        pieces.append("".join(text))
    return [p for p in pieces if p != ""], None


def _element(raw: str, up: str, fm: bool) -> str:
    prefix = "FM" if fm else ""
    if up in _WORDS:
        return prefix + _cased_word(up, word_case(raw))
    if up == "X":
        return "."
    if up in ("SYYYY", "SCC"):
        return ("" if fm else " ") + prefix + up[1:]  # the sign position of an AD year
    if up in ("RRRR", "RR"):
        return prefix + up.replace("R", "Y")
    if up == "SSSSS":
        return prefix + "SSSS"
    if up == "FF":
        return "FF6"
    if up in ("FF7", "FF8", "FF9"):
        return 'US"' + "0" * (int(up[2]) - 6) + '"'
    if up.startswith("FF") or up in ("TZH", "TZM"):
        return up
    return prefix + up


def is_plain(pieces: list[Piece]) -> bool:
    return all(isinstance(p, str) for p in pieces)
