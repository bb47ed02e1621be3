"""check_sql reads libpg_query's JSON tree (byte offsets); the result must be what reading pglast's
node objects (character offsets) gave, non-ASCII text included."""

from __future__ import annotations

import pglast
import pytest
from pglast import parse_plpgsql, parse_sql

from migrator.batch.static_check import StaticResult, check_sql

ROUTINE = "CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$"
BROKEN = "CREATE PROCEDURE p() LANGUAGE plpgsql AS $$ BEGIN x := ; END $$"
TEXTS = [
    f"SELECT 'é€𝄞';\n{ROUTINE};\nDO $$BEGIN PERFORM 'ü'; END$$;",
    f"-- ß\nSELECT 'ééé';\n{BROKEN};",
    f"{ROUTINE}; SELECT 'ü'",  # the last statement has no terminator (stmt_len 0)
    "DO LANGUAGE sql 'SELECT 1';",  # not PL/pgSQL: not compiled
    "DO $$ BEGIN NULL; END $$ LANGUAGE PLPGSQL;",
    "CREATE FUNCTION g() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql; SELECT 'é'",
    "SELECT 'é' frm x;",
    "",
]


def _reference(text: str) -> StaticResult:
    """check_sql as first written, over pglast's node objects."""

    def plpgsql(stmt) -> bool:
        node = stmt.stmt
        if type(node).__name__ == "DoStmt":
            langs = [a.arg.sval for a in (node.args or ()) if a.defname == "language"]
            return not langs or langs[0].lower() == "plpgsql"
        if type(node).__name__ == "CreateFunctionStmt":
            for opt in node.options or ():
                if opt.defname == "language":
                    return opt.arg.sval.lower() == "plpgsql"
        return False

    try:
        stmts = parse_sql(text)
    except pglast.parser.ParseError as exc:
        return StaticResult(False, 0, 0, f"SQL parse error: {exc}")
    bodies, notes = 0, []
    for stmt in stmts:
        if not plpgsql(stmt):
            continue
        start = stmt.stmt_location or 0
        piece = text[start : start + stmt.stmt_len] if stmt.stmt_len else text[start:]
        try:
            parse_plpgsql(piece + ";")
        except pglast.parser.ParseError as exc:
            if str(exc).startswith("Not implemented"):
                notes.append(f"PL/pgSQL body not statically checkable by libpg_query: {exc}")
                continue
            return StaticResult(False, len(stmts), bodies, f"PL/pgSQL parse error: {exc}")
        bodies += 1
    return StaticResult(True, len(stmts), bodies, note="; ".join(notes) or None)


@pytest.mark.parametrize("text", TEXTS)
def test_check_sql_reads_what_the_node_objects_read(text):
    assert check_sql(text) == _reference(text)


def test_a_broken_body_after_multibyte_text_is_found():
    result = check_sql(f"SELECT '€𝄞';\n{BROKEN};")
    assert not result.ok and result.error.startswith("PL/pgSQL parse error")
    assert check_sql(f"SELECT '€𝄞';\n{ROUTINE};") == StaticResult(True, 2, 1)
