"""fixtures/schemas/subtle against its trusted PostgreSQL port (fixtures/reference/subtle), deployed
side by side: padded_code (a CHAR(6) variable keeps its blanks: 'AB    |6') and one_line (REGEXP_LIKE's
'.' does not match a newline by default) agree with the port on every input, a label with a
newline and a NULL code included."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from harness.engines.postgres import scratch_database
from harness.judge.deploy import execute_script, has_inline_copy
from migrator.batch.output import preamble_sql
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.dependencies import analyze_dependencies
from migrator.source.reader import read_schema_dir

ROOT = Path(__file__).resolve().parents[3]
SCHEMA, PORT = ROOT / "fixtures" / "schemas" / "subtle", ROOT / "fixtures" / "reference" / "subtle"
CODES = ["AB", "XYZ123", None, "  A", "A B", "", "abcdef"]
TEXTS = ["ab", "ab\ncd", "apple\nbox", "a\nb", "abc", "a.b", "ab cd", "AB", "", None, "a\n", "\nab", "abxcd"]


@pytest.fixture(scope="module")
def pair(pg_engine):
    """(converted, port) connections, each in its own database."""
    source = read_schema_dir(SCHEMA)
    graph = analyze_dependencies(source)
    ctx = prepare_context(source)
    by_id = source.by_id()
    with (
        scratch_database(pg_engine, prefix="subtlec") as dsn_c,
        scratch_database(pg_engine, prefix="subtlep") as dsn_p,
        psycopg.connect(dsn_c, autocommit=True) as conv,
        psycopg.connect(dsn_p, autocommit=True) as port,
    ):
        for conn in (conv, port):
            conn.execute(preamble_sql("subtle", []))
        for unit_id in graph.order:
            conversion = convert_unit(by_id[unit_id], ctx)
            assert not conversion.unconverted and conversion.error is None, unit_id
            if has_inline_copy(conversion.output):  # a table's data unit: its rows streamed, as the pipeline does
                error, _ = execute_script(conv, conversion.output)
                assert error is None, (unit_id, error)
            else:
                conv.execute(conversion.output)
        for f in sorted(PORT.glob("*.sql")):
            port.execute(f.read_text(encoding="utf-8"))
        yield conv, port


def _both(pair, sql: str, *args):
    conv, port = pair
    return conv.execute(sql, args).fetchone()[0], port.execute(sql, args).fetchone()[0]


@pytest.mark.parametrize("code", CODES)
def test_padded_code_keeps_the_blanks_of_char(pair, code):
    for conn in pair:
        conn.execute("DELETE FROM items WHERE item_id = 99")
        conn.execute("INSERT INTO items (item_id, code, label, qty) VALUES (99, %s, 'x', 0)", (code,))
    got, expected = _both(pair, "SELECT padded_code(99)")
    assert got == expected
    if code == "AB":
        assert got == "AB    |6"  # Oracle: CHAR(6) is blank-padded, and LENGTH counts the blanks
    if code is None:
        assert got == "|"


@pytest.mark.parametrize("item", [1, 2, 3])
def test_padded_code_on_the_fixture_rows(pair, item):
    got, expected = _both(pair, "SELECT padded_code(%s)", item)
    assert got == expected


@pytest.mark.parametrize("text", TEXTS, ids=repr)
def test_one_line_dot_does_not_match_a_newline(pair, text):
    got, expected = _both(pair, "SELECT one_line(%s)", text)
    assert got == expected
    if text == "ab\ncd":
        assert got == 0  # '.' is no newline in Oracle's default match mode


def test_one_line_on_the_fixture_labels(pair):
    conv, port = pair
    query = "SELECT item_id, one_line(label) FROM items WHERE item_id IN (1, 2, 3) ORDER BY item_id"
    assert conv.execute(query).fetchall() == port.execute(query).fetchall() == [(1, 0), (2, 1), (3, 1)]
