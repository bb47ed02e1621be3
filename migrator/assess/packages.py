"""Calls into Oracle-supplied packages (DBMS_*, UTL_*, ...): found with the reader's own tokenizer
(so a name in a comment or a string is no call), and judged by what the converter did with them.

A package member is `handled` when the converter has a translation for it (the converter's own
table, `migrator.convert.supplied`; a test converts each entry to keep them in step), `not
converted` when the converter reported it as such (a package without a PostgreSQL equivalent is
reported once per unit, with every call site), and otherwise `no translation`: the converter
passed it through (at most re-spelt by the SQL parser), and PostgreSQL has no such package, so it
fails or misbehaves when it runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from migrator.convert import supplied
from migrator.source.lexer import OP, WORD, code_tokens

NAMES = supplied.NAMES
# (package, member) -> what the converter makes of it: the converter's own table
# (migrator.convert.supplied); a test converts each entry to keep them in step.
HANDLED = {
    **{(m.package, m.name): f"{m.pg}(...)" for m in supplied.MEMBERS},
    **{(p, n): f"the value {v}" for (p, n), v in supplied.CONSTANTS.items()},
    **{(p, n): f"jsonb ({kind} of {elem})" for (p, n), (kind, elem) in supplied.TYPES.items()},
    **{(p, n): f"ORA{code} (harness/ground_truth/oracle_errors.py)" for (p, n), code in supplied.EXCEPTIONS.items()},
    ("DBMS_OUTPUT", "PUT_LINE"): "RAISE NOTICE (rule plsql.dbms_output)",
    ("DBMS_OUTPUT", "PUT"): "buffered NOTICE (rule plsql.dbms_output)",
    ("DBMS_OUTPUT", "NEW_LINE"): "buffered NOTICE (rule plsql.dbms_output)",
    ("DBMS_OUTPUT", "ENABLE"): "nothing needed: NOTICE output is always on",
    ("DBMS_OUTPUT", "DISABLE"): "nothing needed: NOTICE output is always on",
}
HANDLED_STATUS, NOT_CONVERTED, NO_TRANSLATION = "handled", "not converted", "no translation"


@dataclass(frozen=True)
class PackageCall:
    package: str  # upper case, e.g. UTL_FILE
    member: str  # upper case, e.g. FOPEN ("" for a bare package reference)
    line: int  # 1-based line within the unit text


def is_supplied(name: str) -> bool:
    return supplied.is_supplied(name)


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
    redesign = f"{supplied.REDESIGN}: {supplied.redesign_name(supplied.Ref(call.package, call.member))}".lower()
    if any(text == redesign for text in reported):  # the unit is reported for the whole package
        return NOT_CONVERTED
    if (call.package, call.member) in HANDLED:
        return HANDLED_STATUS
    return NO_TRANSLATION
