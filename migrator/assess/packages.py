"""Calls into Oracle-supplied packages (DBMS_*, UTL_*, ...): found with the reader's own tokenizer
(so a name in a comment or a string is no call), and judged by what the converter did with them.

A package member is `handled` when the converter has a translation for it (the table below mirrors
migrator.convert.plsql.emit_call; a test converts each entry to keep them in step), `not
converted` when the converter reported it as such, and otherwise `no translation`: the converter
passed it through (at most re-spelt by the SQL parser), and PostgreSQL has no such package, so it
fails or misbehaves when it runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from migrator.source.lexer import OP, WORD, code_tokens

PREFIXES = ("DBMS_", "UTL_", "OWA_", "APEX_", "CTX_", "SDO_", "XDB_")
NAMES = frozenset({"HTP", "HTF", "OWA"})
# (package, member or "*") -> what the converter makes of it
HANDLED = {
    ("DBMS_OUTPUT", "PUT_LINE"): "RAISE NOTICE (rule plsql.dbms_output)",
    ("DBMS_OUTPUT", "PUT"): "buffered NOTICE (rule plsql.dbms_output)",
    ("DBMS_OUTPUT", "NEW_LINE"): "buffered NOTICE (rule plsql.dbms_output)",
    ("DBMS_OUTPUT", "ENABLE"): "nothing needed: NOTICE output is always on",
    ("DBMS_OUTPUT", "DISABLE"): "nothing needed: NOTICE output is always on",
    ("DBMS_LOCK", "SLEEP"): "pg_sleep",
    ("DBMS_SESSION", "SLEEP"): "pg_sleep",
}
HANDLED_STATUS, NOT_CONVERTED, NO_TRANSLATION = "handled", "not converted", "no translation"


@dataclass(frozen=True)
class PackageCall:
    package: str  # upper case, e.g. UTL_FILE
    member: str  # upper case, e.g. FOPEN ("" for a bare package reference)
    line: int  # 1-based line within the unit text


def is_supplied(name: str) -> bool:
    upper = name.upper()
    return upper.startswith(PREFIXES) or upper in NAMES


def find_calls(text: str) -> list[PackageCall]:
    """Every `PACKAGE.MEMBER` (optionally `SYS.PACKAGE.MEMBER`) reference to a supplied package."""
    tokens = [t for t in code_tokens(text) if t.kind in (WORD, OP)]
    calls = []
    for i, tok in enumerate(tokens):
        if tok.kind != WORD or not is_supplied(tok.text):
            continue
        if i >= 2 and tokens[i - 1].text == "." and tokens[i - 2].text.upper() != "SYS":
            continue  # a member or column named like a package (x.dbms_thing) is no package call
        has_member = i + 2 < len(tokens) and tokens[i + 1].text == "." and tokens[i + 2].kind == WORD
        member = tokens[i + 2].text.upper() if has_member else ""
        calls.append(PackageCall(tok.text.upper(), member, text.count("\n", 0, tok.start) + 1))
    return calls


def status(call: PackageCall, reported: list[str]) -> str:
    """`reported`: the construct names and messages of what the converter did not convert in the
    unit, lower-cased (it names a supplied call as `utl_file.put_line ...` or `DBMS_OUTPUT.GET_LINE`)."""
    qualified = f"{call.package}.{call.member}".lower()
    if call.member and any(text.startswith(qualified) for text in reported):
        return NOT_CONVERTED
    if (call.package, call.member) in HANDLED:
        return HANDLED_STATUS
    return NO_TRANSLATION
