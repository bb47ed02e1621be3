"""The one quoting path: hostile names round-trip as exactly one identifier (Hypothesis).

Names carry quotes, doubled quotes, semicolons, `--`, `/*`, `$$`, reserved words, line breaks and
non-ASCII letters. Each must come back from PostgreSQL's own parser (pglast) — and from a real
server's catalog — as the very same name, in the preamble and in deploy.sql, with no statement
added.
"""

from __future__ import annotations

import pglast
import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg import sql

from harness.quoting import UnsafeName, comment_text, qualified, quote_ident
from migrator.batch.output import deploy_script, preamble_sql, unit_path
from migrator.source.units import SourceSpan, Unit, UnitKind

PIECES = [
    '"',
    '""',
    ";",
    "--",
    "/*",
    "*/",
    "$$",
    "$fn$",
    "'",
    " ",
    "\n",
    "\\",
    "é",
    "ß",
    "数",
    "Ω",
    "inner",
    "user",
    "select",
    "order",
    "table",
    "oracompat",
    "x",
    "A",
    "_",
    "1",
    "#",
    "$",
]
NAMES = (
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=8)
    .map("".join)
    .filter(lambda n: len(n.encode("utf-8")) <= 63)
)  # PostgreSQL truncates longer names (NAMEDATALEN)


def _created_schemas(text: str) -> list[str]:
    return [s.stmt.schemaname for s in pglast.parse_sql(text) if type(s.stmt).__name__ == "CreateSchemaStmt"]


@settings(max_examples=300, deadline=None)
@given(NAMES)
def test_quote_ident_reads_back_as_the_same_name(name):
    stmts = pglast.parse_sql(f"CREATE SCHEMA {quote_ident(name)}; SELECT 1")
    assert len(stmts) == 2
    assert stmts[0].stmt.schemaname == name


@settings(max_examples=300, deadline=None)
@given(NAMES)
def test_quote_ident_quotes_as_psycopg_does(name):
    """quote_ident writes psycopg's connection-less quoting out (no psycopg import in a conversion):
    whatever it quotes comes out as sql.Identifier would have written it."""
    got = quote_ident(name)
    assert got == name or got == sql.Identifier(name).as_string(None)


def test_a_name_psycopg_cannot_encode_is_refused_as_before():
    with pytest.raises(UnicodeEncodeError):
        quote_ident("bad\udc80name")
    with pytest.raises(UnicodeEncodeError):
        sql.Identifier("bad\udc80name").as_string(None)


@settings(max_examples=200, deadline=None)
@given(NAMES, NAMES)
def test_qualified_names_keep_their_parts(schema, name):
    stmt = pglast.parse_sql(f"CREATE TABLE {qualified(schema, name)} (x int)")[0].stmt
    assert (stmt.relation.schemaname, stmt.relation.relname) == (schema, name)


PLAIN_OTHERS = [
    type(s.stmt).__name__
    for s in pglast.parse_sql(preamble_sql("hr", ["pkg_a"]))
    if type(s.stmt).__name__ != "CreateSchemaStmt"
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NAMES, NAMES)
def test_preamble_creates_exactly_the_named_schemas(schema, package):
    text = preamble_sql(schema, [package])
    others = [type(s.stmt).__name__ for s in pglast.parse_sql(text) if type(s.stmt).__name__ != "CreateSchemaStmt"]
    assert others == PLAIN_OTHERS  # nothing injected, nothing lost
    expected = ["oracompat"] + [s for s in dict.fromkeys([schema, package]) if s != "oracompat"]
    # the support library's own: mdsys holds Oracle Spatial's types (oracompat/spatial.sql)
    expected = list(dict.fromkeys([*expected, "mdsys"]))
    assert list(dict.fromkeys(_created_schemas(text))) == expected


def _unit(name: str, schema: str = "hr") -> Unit:
    return Unit(
        id=f"package_spec:{schema}.{name}",
        kind=UnitKind.PACKAGE_SPEC,
        schema=schema,
        name=name,
        text="",
        span=SourceSpan("p.pks", 1, 1, 0, 0),
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(NAMES, min_size=1, max_size=6, unique=True))
def test_deploy_script_paths_are_file_safe_and_distinct(names):
    paths = [unit_path(_unit(n)) for n in names]
    assert len(set(paths)) == len(paths)
    script = deploy_script(paths)
    for line in script.splitlines():
        assert line.startswith(("--", "\\set ", "\\ir ")), line
        if line.startswith("\\ir "):
            assert set(line[4:]) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/")


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(name=NAMES)
def test_names_round_trip_through_a_real_server(pg_dsn, name):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {quote_ident(name)}".encode("utf-8"))
        try:
            found = conn.execute("SELECT nspname FROM pg_namespace WHERE nspname = %s", (name,)).fetchall()
            assert found == [(name,)]
        finally:
            conn.execute(sql.SQL("DROP SCHEMA {}").format(sql.Identifier(name)))


def test_bare_names_stay_bare_and_nul_is_refused():
    assert quote_ident("hr") == "hr" and quote_ident("abc$1") == "abc$1"
    assert quote_ident("inner") == '"inner"' and quote_ident("Emp") == '"Emp"' and quote_ident("emp#") == '"emp#"'
    with pytest.raises(UnsafeName):
        quote_ident("a\x00b")
    with pytest.raises(UnsafeName):
        quote_ident("")


def test_comment_text_cannot_end_a_comment():
    text = "-- " + comment_text("x\nDROP TABLE t;\r\n")
    assert len(pglast.parse_sql(text + "\nSELECT 1")) == 1
