"""Converted code is untrusted input: every name in it reaches PostgreSQL as exactly one identifier.

Property: whatever an Oracle export calls its objects (quotes, doubled quotes, ';', '--', '/*',
'$$', spaces, '#', '$', reserved words, mixed case, non-ASCII letters), converting a schema whose
table, column, sequence, view, function, procedure, package and trigger all carry that name (as
a quoted Oracle identifier) gives SQL in which PostgreSQL's own parser finds exactly the expected
statements, creating objects of exactly that name, and code that refers to exactly those objects.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot.dialects.oracle import Oracle

from harness.quoting import quote_ident
from migrator.convert.plsql.emit_trigger import helper_trigger_name
from tests.migrator.name_support import Refs, body_refs, collect, convert_folder, names, statements

FRAGMENTS = [
    '"',
    '""',
    ";",
    "--",
    "/*",
    "$$",
    " ",
    "#",
    "$",
    "inner",
    "user",
    "select",
    "order",
    "table",
    "INNER",
    "USER",
    "SELECT",
    "Mixed",
    "x",
    "Q",
    "_",
    "7",
    "é",
    "Ж",
    "ß",
    "Ω",
    "日",
]
ASCII = "".join(chr(c) for c in range(32, 127))
# A function named like an Oracle built-in (LAST_DAY) is the built-in in Oracle SQL, so the
# procedure's call to it would rightly not be a call to ours: such names are left out.
_BUILTINS = set(Oracle.Parser.FUNCTIONS) | set(Oracle.Parser.FUNCTION_PARSERS)
# PostgreSQL keeps 63 bytes of a name; the trigger function adds "_fn", so names stay well within.
NAMES = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8).map("".join),
    st.text(alphabet=ASCII + "éЖßΩ日", min_size=1, max_size=30),
).filter(lambda n: len(n) <= 30 and len(n.encode()) <= 48 and _oracle_name(n).upper() not in _BUILTINS)

SCHEMA = "hr"


def _oracle_name(raw: str) -> str:
    """The PostgreSQL name of `raw` written as a quoted Oracle identifier: Oracle's "EMP" is the
    unquoted EMP, i.e. PostgreSQL's emp; any other quoted name keeps its exact text."""
    bare = re.fullmatch(r"[^\W\d_][\w$#]*", raw) is not None
    return raw.lower() if bare and raw == raw.upper() else raw


def oracle_source(q: str) -> str:
    """One schema naming everything `q` (an Oracle quoted identifier)."""
    return f"""CREATE TABLE {q} (id NUMBER PRIMARY KEY, {q} NUMBER);
CREATE SEQUENCE {q};
CREATE VIEW {q} AS SELECT id, {q} FROM {q};
CREATE OR REPLACE FUNCTION {q} (p NUMBER) RETURN NUMBER IS
  v NUMBER;
BEGIN
  SELECT COUNT(*) INTO v FROM {q} WHERE {q} = p;
  RETURN v + p;
END {q};
/
CREATE OR REPLACE PROCEDURE {q} (p NUMBER) IS
BEGIN
  INSERT INTO {q} (id, {q}) VALUES ({q}.NEXTVAL, {q}(p));
END {q};
/
CREATE OR REPLACE PACKAGE {q} AS
  FUNCTION {q} (p NUMBER) RETURN NUMBER;
END {q};
/
CREATE OR REPLACE PACKAGE BODY {q} AS
  FUNCTION {q} (p NUMBER) RETURN NUMBER IS
  BEGIN
    RETURN p + 1;
  END {q};
END {q};
/
CREATE OR REPLACE TRIGGER {q} BEFORE INSERT ON {q} FOR EACH ROW
BEGIN
  :NEW.{q} := {q}.{q}(:NEW.id);
END {q};
/
"""


def created(output: str, expected: list[str]) -> list[tuple[str, dict]]:
    stmts = statements(output)
    assert [s["@"] for _, s in stmts] == expected, output
    return stmts


def check_table(output: str, name: str) -> None:
    [(_, table)] = created(output, ["CreateStmt"])
    assert table["relation"]["relname"] == name and "schemaname" not in table["relation"]
    assert [c["colname"] for c in table["tableElts"]] == ["id", name]


def check_view(output: str, name: str) -> None:
    [(_, view)] = created(output, ["ViewStmt"])
    assert view["view"]["relname"] == name
    refs = collect(view["query"], Refs())
    assert refs.relations == {(name,)} and refs.columns == {"id", name}


def check_function(text: str, tree: dict, qname: tuple[str, ...], procedure: bool = False) -> Refs:
    assert tree["@"] == "CreateFunctionStmt" and names(tree["funcname"]) == qname
    assert bool(tree.get("is_procedure")) == procedure
    return body_refs(text)  # the body parses as PL/pgSQL: the dollar quote held


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NAMES)
def test_any_name_is_one_identifier_everywhere(raw):
    q = '"' + raw.replace('"', '""') + '"'
    name = _oracle_name(raw)  # Oracle's folding: "USER" is user, "Mixed" stays Mixed
    with tempfile.TemporaryDirectory() as tmp:
        converted = convert_folder(Path(tmp) / SCHEMA, {"objects.sql": oracle_source(q)})
    out = {unit.kind.value: text for unit, text in converted}
    assert len(out) == len(converted) == 8  # one unit of each kind, none lost or split

    check_table(out["table"], name)
    [(_, seq)] = created(out["sequence"], ["CreateSeqStmt"])
    assert seq["sequence"]["relname"] == name
    check_view(out["view"], name)

    [(text, tree)] = created(out["function"], ["CreateFunctionStmt"])
    refs = check_function(text, tree, (SCHEMA, name))
    assert refs.relations == {(name,)} and name in refs.columns

    [(text, tree)] = created(out["procedure"], ["CreateFunctionStmt"])
    refs = check_function(text, tree, (SCHEMA, name), procedure=True)
    assert refs.relations == {(name,)}
    assert {(name,), ("nextval",)} <= refs.functions
    assert quote_ident(name) in refs.strings  # nextval's regclass text names the sequence

    schema, init = created(out["package_spec"], ["CreateSchemaStmt", "CreateFunctionStmt"])
    assert schema[1]["schemaname"] == name
    check_function(*init, (name, "initialize__"))
    schema, init, member = created(
        out["package_body"], ["CreateSchemaStmt", "CreateFunctionStmt", "CreateFunctionStmt"]
    )
    assert schema[1]["schemaname"] == name
    check_function(*init, (name, "initialize__"))
    assert (name, "initialize__") in check_function(*member, (name, name)).functions

    function, trigger = created(out["trigger"], ["CreateFunctionStmt", "CreateTrigStmt"])
    refs = check_function(*function, (SCHEMA, f"{name}_fn"))
    assert (name, name) in refs.functions and name in refs.columns
    trg = trigger[1]
    assert (trg["trigname"], trg["relation"]["relname"]) == (name, name)
    assert names(trg["funcname"]) == (SCHEMA, f"{name}_fn")


@given(NAMES.filter(lambda n: n.strip(" ")), NAMES, NAMES)
def test_updating_helper_trigger_fires_first_and_is_distinct_per_column(trigger, col, other):
    # PostgreSQL fires a table's triggers in bytewise name order and keeps 63 bytes of a name
    helper = helper_trigger_name(trigger, col)
    assert helper.encode() < trigger.encode() and len(helper.encode()) <= 63
    assert helper_trigger_name(trigger, col, "clr").encode() < helper.encode()
    if other != col:
        assert helper_trigger_name(trigger, other) != helper
