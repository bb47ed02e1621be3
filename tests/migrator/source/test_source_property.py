"""Property: nothing in the input is dropped silently.

Random scripts mixing SQL statements, PL/SQL blocks, comments, SQL*Plus directives and blank
lines must come back as exactly the generated units, with every other character accounted for;
and any text at all must split into pieces whose gaps hold only whitespace, comments and
terminators.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrator.source.accounting import accounting_problems, gap_problems
from migrator.source.reader import read_schema_dir
from migrator.source.sqlplus import split_script

NAME = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)
TEXT = st.text(alphabet="ab ;/'\"-*&é€(", max_size=12)
LINE_TEXT = TEXT.map(lambda s: s.rstrip("-").replace("\n", " "))


@st.composite
def literal(draw) -> str:
    body = draw(TEXT)
    choice = draw(st.integers(0, 2))
    if choice == 0:
        return "'" + body.replace("'", "''") + "'"
    if choice == 1:
        open_, close = draw(st.sampled_from(["[]", "{}", "<>", "()", "!!"]))
        return f"q'{open_}{body.replace(close + chr(39), '')}{close}'"
    return str(draw(st.integers(-5, 500)))


@st.composite
def inner_comment(draw) -> str:
    body = draw(LINE_TEXT).replace("*/", "")
    return draw(st.sampled_from([" ", f" /* {body} */ ", f" -- {body}\n  "]))


@st.composite
def sql_statement(draw) -> tuple[str, str]:
    """(statement text as the unit should hold it, the terminator that follows)."""
    table, a, b = draw(NAME), draw(literal()), draw(literal())
    form = draw(st.integers(0, 2))
    if form == 0:
        text = f"INSERT INTO {table} VALUES ({a},{draw(inner_comment())}{b})"
    elif form == 1:
        text = f"CREATE TABLE {table} (\n  c1 VARCHAR2(20) DEFAULT {a},{draw(inner_comment())}c2 NUMBER\n)"
    else:
        text = f"UPDATE {table} SET c1 = {a}{draw(inner_comment())}WHERE c2 = {b}"
    return text, draw(st.sampled_from([";", ";  -- done", "\n/"]))


@st.composite
def plsql_block(draw) -> tuple[str, str]:
    name, lit = draw(NAME), draw(literal())
    kind = draw(st.sampled_from(["PROCEDURE", "FUNCTION"]))
    ret = " RETURN VARCHAR2" if kind == "FUNCTION" else ""
    body = f"  v := {lit};{draw(inner_comment())}\n  RETURN{' v' if ret else ''};"
    text = f"CREATE OR REPLACE {kind} {name}{ret} IS\n  v VARCHAR2(30);\nBEGIN\n{body}\nEND {name};"
    return text, "\n/"


@st.composite
def filler(draw) -> str:
    # A trailing '-' continues a SQL*Plus command onto the next line (the reader follows SQL*Plus
    # there), so a generated directive must not end with one or it would swallow the next unit.
    words = draw(LINE_TEXT).rstrip().rstrip("-")
    return draw(
        st.sampled_from(
            ["", f"-- {words}", f"/* {words.replace('*/', '')} */", "SET ECHO OFF", f"PROMPT {words}",
             f"REM {words}", "WHENEVER SQLERROR EXIT 1", "SPOOL x.log", "DEFINE a = 1"]
        )
    )  # fmt: skip


ELEMENT = st.one_of(
    sql_statement().map(lambda s: ("unit", s)),
    plsql_block().map(lambda s: ("unit", s)),
    filler().map(lambda s: ("gap", s)),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ELEMENT, max_size=12))
def test_generated_scripts_split_into_exactly_their_units(elements):
    script, expected = [], []
    for role, value in elements:
        if role == "unit":
            text, terminator = value
            expected.append(text)
            script.append(text + terminator)
        else:
            script.append(value)
    if not expected:
        script.append("CREATE SEQUENCE s;")
        expected.append("CREATE SEQUENCE s")
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "gen.sql").write_text("\n".join(script) + "\n", encoding="utf-8")
        source = read_schema_dir(tmp, "s")
        text = Path(tmp, "gen.sql").read_text(encoding="utf-8")
        # a table's INSERTs are one unit: its statements are where its parts say
        found = [(u.span.start_offset, u.text) for u in source.units if not u.parts]
        found += [(p.start_offset, text[p.start_offset : p.end_offset]) for u in source.units for p in u.parts]
        assert [t for _, t in sorted(found)] == expected
        assert accounting_problems(source) == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abq;/'\"-*&\n \t()[]", max_size=120))
def test_any_text_splits_without_losing_code(text):
    pieces = split_script(text)
    assert gap_problems(text, [(p.start, p.end) for p in pieces]) == []
    assert all(p.start <= p.end for p in pieces)
