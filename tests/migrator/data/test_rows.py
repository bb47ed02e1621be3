"""Oracle literal rows, datetime masks and the streaming statement scanner (no database)."""

from __future__ import annotations

import io

import pytest

from migrator.data import copy_text, scanner
from migrator.data.masks import BadValue, read_datetime
from migrator.data.rows import NotLiteral, parse_insert


@pytest.mark.parametrize(
    ("text", "mask", "zone", "iso"),
    [
        ("17-DEC-80", "DD-MON-RR", False, "1980-12-17 00:00:00"),
        ("01-jan-49", "DD-MON-RR", False, "2049-01-01 00:00:00"),
        ("12/31/2019 11:05:00 PM", "MM/DD/YYYY HH:MI:SS AM", False, "2019-12-31 23:05:00"),
        ("2020-01-02 10:11:12,123456789", "YYYY-MM-DD HH24:MI:SS,FF9", False, "2020-01-02 10:11:12.123456789"),
        ("2020-01-02 10:11:12.5 -03:30", "YYYY-MM-DD HH24:MI:SS.FF TZH:TZM", True, "2020-01-02 10:11:12.5 -03:30"),
        ("2020-01-02 10:11 Europe/Madrid", "YYYY-MM-DD HH24:MI TZR", True, "2020-01-02 10:11:00 Europe/Madrid"),
        ("20200102", "YYYYMMDD", False, "2020-01-02 00:00:00"),
        ("March 5, 2021", "FMMonth DD, YYYY", False, "2021-03-05 00:00:00"),
        ("2021 day 032", 'YYYY "day" DDD', False, "2021-02-01 00:00:00"),
    ],
)
def test_masks(text, mask, zone, iso):
    assert read_datetime(text, mask, zone) == iso


@pytest.mark.parametrize(("text", "mask"), [("2019-13-01", "YYYY-MM-DD"), ("31/02/2019", "DD/MM/YYYY"), ("x", "YYYY")])
def test_bad_dates_are_bad_values(text, mask):
    with pytest.raises(BadValue):
        read_datetime(text, mask)


def test_literal_values():
    row = parse_insert(
        "Insert into HR.EMP (A,B,C,D,E,F,G,H,I) values (-1.5E3, N'Schäfer', q'{it's}', '', NULL, "
        "HEXTORAW('0A0b'), TO_CLOB('x') || TO_CLOB('y'), 'a' || CHR(10) || NULL, EMPTY_CLOB())"
    )
    assert row.table == ("HR", "EMP") and row.columns == tuple("ABCDEFGHI")
    assert row.values == ("-1.5E3", "Schäfer", "it's", None, None, b"\n\x0b", "xy", "a\n", "")
    assert copy_text.line(row.values) == "-1.5E3\tSchäfer\tit's\t\\N\t\\N\t\\\\x0a0b\txy\ta\\n\t\n"


@pytest.mark.parametrize(
    "text",
    ["INSERT INTO t VALUES (s.NEXTVAL)", "INSERT INTO t VALUES (SYSDATE)", "INSERT INTO t SELECT * FROM u",
     "INSERT INTO t VALUES (my_func(1))", "INSERT ALL INTO t VALUES (1) SELECT 1 FROM dual",
     "INSERT INTO t VALUES (address_t('x', 1))", "INSERT INTO t@remote VALUES (1)"],
)  # fmt: skip
def test_what_is_not_a_literal_row(text):
    with pytest.raises(NotLiteral):
        parse_insert(text)


def test_bad_literals_are_rejected_not_guessed():
    for text in [
        "INSERT INTO t VALUES (HEXTORAW('zz'))",
        "INSERT INTO t (a, b) VALUES (1)",
        "INSERT INTO t VALUES (CHR(0))",
    ]:
        with pytest.raises(BadValue):
            parse_insert(text)


SCRIPT = """REM INSERTING into EMP
SET DEFINE OFF;
-- a comment; with a semicolon
Insert into EMP (A,B) values ('x;y',q'[it's; ok]');
/* block ; */ INSERT INTO emp VALUES (1, 'multi
line; text');
INSERT INTO "we;ird" VALUES (2)
;
COMMIT;
/
INSERT INTO last VALUES (3)"""


def test_scanner_statements_lines_and_directives():
    got = [(s.text, s.line, s.end_line, s.directive) for s in scanner.statements(SCRIPT)]
    assert got == [
        ("REM INSERTING into EMP", 1, 1, True),
        ("SET DEFINE OFF", 2, 2, True),
        ("Insert into EMP (A,B) values ('x;y',q'[it's; ok]')", 4, 4, False),
        ("INSERT INTO emp VALUES (1, 'multi\nline; text')", 5, 6, False),  # the comment is between statements
        ('INSERT INTO "we;ird" VALUES (2)', 7, 7, False),
        ("COMMIT", 9, 9, False),
        ("/", 10, 10, True),
        ("INSERT INTO last VALUES (3)", 11, 11, False),
    ]


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64])
def test_scanner_streams_in_any_chunk_size(monkeypatch, chunk):
    monkeypatch.setattr(scanner, "CHUNK", chunk)
    streamed = [(s.text, s.line, s.directive) for s in scanner.statements(io.StringIO(SCRIPT))]
    assert streamed == [(s.text, s.line, s.directive) for s in scanner.statements(SCRIPT)]


def test_scanner_reports_an_unterminated_string():
    with pytest.raises(scanner.ScanError) as err:
        list(scanner.statements("INSERT INTO t VALUES (1);\nINSERT INTO t VALUES ('open);\n"))
    assert err.value.line == 2
