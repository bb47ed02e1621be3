"""The fast paths of a data load give exactly what the general paths give: a whole common INSERT
read by one expression (rows.FAST_ROW) and a datetime read by a mask's strict expression
(masks._read_fast). No database."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from migrator.data import copy_text, masks, rows
from migrator.data.masks import BadValue, read_datetime
from migrator.data.rows import FAST_ROW, NotLiteral, fast_copy_line, parse_insert
from migrator.data.spool import spool

# every value form of an export (Oracle SQL Language Reference: literals, TO_DATE / TO_TIMESTAMP /
# TO_TIMESTAMP_TZ, CHR, HEXTORAW, TO_CLOB, q-quoting, national strings, exponents)
STATEMENTS = [
    "Insert into T (A,B,C) values (1,'x',NULL)",
    "Insert into T (A,B,C) values (-1.5E3,+.5,7.)",
    "Insert into T (A,B,C) values (1e-5,2E+10,-0)",
    "Insert into T (A,B,C) values ('',N'Schäfer',n'')",
    "Insert into T (A,B,C) values ('it''s','tab\there','back\\slash')",
    "Insert into T (A,B,C) values ('two\nlines','cr\r\nlf','ctl\x08\x0c\x0b')",
    "Insert into T (A,B,C) values (q'[it's]',q'{a}',Q'<b>')",
    "Insert into T (A,B,C) values ('a'||CHR(10)||'b',CHR(39),NCHR(233))",
    "Insert into T (A,B,C) values (HEXTORAW('0A0b'),TO_CLOB('x')||TO_CLOB('y'),EMPTY_CLOB())",
    "Insert into T (A,B,C) values (to_date('17-DEC-80','DD-MON-RR'),TO_DATE('2020-02-29','YYYY-MM-DD'),to_date(''))",
    "Insert into T (A,B,C) values (TO_DATE('01/09/2018 13:05','DD/MM/YYYY HH24:MI'),TO_DATE('17-DEC-80'),NULL)",
    "Insert into T (A,B,C) values (TO_TIMESTAMP('2020-01-02 10:11:12.123456789','YYYY-MM-DD HH24:MI:SS.FF9'),"
    "TO_TIMESTAMP('12/31/2019 11:05:00.5 PM','MM/DD/YYYY HH:MI:SS.FF AM'),"
    "TO_TIMESTAMP_TZ('2020-01-02 10:11:12.5 -03:30','YYYY-MM-DD HH24:MI:SS.FF TZH:TZM'))",
    "Insert into T (A,B,C) values (TO_TIMESTAMP_TZ('2020-01-02 10:11 Europe/Madrid','YYYY-MM-DD HH24:MI TZR'),"
    "DATE '2020-01-02',TIMESTAMP '2020-01-02 03:04:05')",
    "INSERT INTO t VALUES (1, 'x')",
    "insert into s.t(a,b) values ( 1 , 'y' )",
    'INSERT INTO "Odd" ("a b", c) VALUES (1, 2)',
]


def _general(text: str) -> str:
    """The general path's COPY line (the token parser), whatever the fast paths do."""
    saved = rows._HEAD
    rows._HEAD = rows.re.compile(r"(?!)")  # never matches: parse_insert tokenizes the whole statement
    try:
        return copy_text.line(parse_insert(text).values)
    finally:
        rows._HEAD = saved


@pytest.mark.parametrize("text", STATEMENTS)
def test_fast_row_gives_the_general_paths_line(text):
    expected = _general(text)
    assert copy_text.line(parse_insert(text).values) == expected
    m = FAST_ROW.match(text + ";")
    if m is not None:  # the forms it does not read (CHR, HEXTORAW, q-quotes …) take the general path
        count = rows.head(m.group("head"))[1]
        assert fast_copy_line(m.group("vals"), len(count) if count else None) == expected


def test_fast_row_reads_the_common_forms_and_leaves_the_rest():
    fast = [s for s in STATEMENTS if FAST_ROW.match(s + ";")]
    assert len(fast) >= 9
    for other in ["Insert into T (A) values (CHR(10))", "Insert into T (A) values (s.nextval)",
                  "Insert into T (A) values ('x') -- c\n", "Insert into T (A) values (1) /* c */;"]:  # fmt: skip
        m = FAST_ROW.match(other if other.endswith(";") else other + ";")
        assert m is None or m.end() != len(other) + (0 if other.endswith(";") else 1)


def test_fast_row_bad_values_are_rejected_as_the_general_path_rejects_them():
    for text in ["Insert into T (A,B) values (1)", "Insert into T (A) values (to_date('30-FEB-2020','DD-MON-YYYY'))"]:
        with pytest.raises(BadValue):
            _general(text)
        m = FAST_ROW.match(text + ";")
        assert m is not None
        with pytest.raises(BadValue):
            count = rows.head(m.group("head"))[1]
            fast_copy_line(m.group("vals"), len(count) if count else None)


def test_spool_fast_and_general_paths_write_the_same_files(tmp_path: Path, monkeypatch):
    script = "SET DEFINE OFF;\n" + "".join(s + ";\n" for s in STATEMENTS if "Odd" not in s) + "COMMIT;\n"
    src = tmp_path / "export.sql"
    src.write_text(script, encoding="utf-8")
    fast = spool([src], tmp_path / "fast")
    monkeypatch.setattr("migrator.data.spool.FAST_ROW", rows.re.compile(r"(?!)"))
    general = spool([src], tmp_path / "general")
    assert {t: s.rows for t, s in fast.tables.items()} == {t: s.rows for t, s in general.tables.items()}
    for name in ("t.sql", "s.t.sql"):
        assert (tmp_path / "fast" / "data" / name).read_bytes() == (tmp_path / "general" / "data" / name).read_bytes()
    for where in (tmp_path / "fast" / ".migrator" / "data").iterdir():
        assert where.read_text() == (tmp_path / "general" / ".migrator" / "data" / where.name).read_text()


def test_head_that_is_not_plain_is_not_literal():
    with pytest.raises(NotLiteral):
        rows.head("INSERT INTO t; INSERT INTO u VALUES (")


def _general_datetime(text: str, mask: str, zone: bool) -> str:
    saved = masks._read_fast
    masks._read_fast = lambda *a: None
    try:
        return read_datetime(text, mask, zone)
    except BadValue:
        return "BAD"
    finally:
        masks._read_fast = saved


def test_mask_fast_path_agrees_with_the_general_path():
    rnd = random.Random(7)
    shapes = ["YYYY-MM-DD HH24:MI:SS.FF6", "YYYY-MM-DD HH24:MI:SS.FF TZH:TZM", "DD-MON-YYYY", "DD-MON-RR",
              "YYYYMMDD", "DD/MM/YYYY HH24:MI", "RRRR-MM-DD", "DD.MM.RR TZH", "FXYYYY-MM-DD"]  # fmt: skip
    fields = {"YYYY": (4, 0, 9999), "RRRR": (4, 0, 9999), "MM": (2, 0, 13), "DD": (2, 0, 32), "HH24": (2, 0, 25),
              "MI": (2, 0, 61), "SS": (2, 0, 61), "FF6": (6, 0, 999999), "FF": (1, 0, 999999999),
              "TZM": (2, 0, 60), "RR": (2, 0, 99)}  # fmt: skip
    order = ["YYYY", "RRRR", "FF6", "HH24", "TZH", "TZM", "MON", "MM", "DD", "MI", "SS", "FF", "RR"]
    fast = 0
    for _ in range(20000):
        mask = rnd.choice(shapes)
        text = mask.replace("FX", "")
        for key in order:
            text = text.replace(key, "\x00" + key + "\x00")

        def value(key: str) -> str:
            if key == "MON":
                return rnd.choice(["JAN", "feb", "Xyz", "Dec"])
            if key == "TZH":
                return rnd.choice(["+", "-", ""]) + f"{rnd.randint(0, 15):02d}"
            width, lo, hi = fields[key]
            v = str(rnd.randint(lo, hi))
            return v.zfill(width) if rnd.random() < 0.9 else v

        text = "".join(value(p) if p in fields or p in ("MON", "TZH") else p for p in text.split("\x00"))
        zone = rnd.random() < 0.5
        got = masks._read_fast(text, mask, zone)
        if got is not None:
            fast += 1
            assert got == _general_datetime(text, mask, zone), (text, mask)
    assert fast > 5000  # the fast path is taken for the well-formed texts


def _script_lines(n: int, trap_at: int | None = None) -> str:
    lines = ["SET DEFINE OFF;"]
    for i in range(1, n + 1):
        text = f"row {i}"
        if i == trap_at:  # a string holding a line that looks like a statement's start
            text = "first line\nInsert into T (A,B) values (0,'not a row');\nlast line"
        lines.append(f"Insert into T (A,B) values ({i},'{text.replace(chr(39), chr(39) * 2)}');")
    lines.append("Insert into T (A,B) values (to_date('31-02-2020','DD-MM-YYYY'),'bad');")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("trap", [False, True])
def test_parallel_spool_writes_what_one_process_writes(tmp_path: Path, monkeypatch, trap):
    from migrator.data import spool as spool_module

    src = tmp_path / "export.sql"
    src.write_text(_script_lines(400), encoding="utf-8")
    if trap:  # put the trap exactly where the file is cut in two
        middle = spool_module._spans(src, 2)[1][2]
        src.write_text(_script_lines(400, trap_at=middle - 2), encoding="utf-8")
    monkeypatch.setattr(spool_module, "PARALLEL_BYTES", 1)
    one = spool([src], tmp_path / "one")
    two = spool([src], tmp_path / "two", workers=2)
    assert one.tables["t"].rows == two.tables["t"].rows == 400
    assert (
        [r.where for r in one.tables["t"].rejects]
        == [r.where for r in two.tables["t"].rejects]
        == [f"export.sql:{404 if trap else 402}"]
    )
    where = ".migrator/data/t.where"
    assert (tmp_path / "one" / where).read_text() == (tmp_path / "two" / where).read_text()
    rows_one = [x for x in (tmp_path / "one" / "data" / "t.sql").read_text().splitlines() if "\t" in x]
    rows_two = [x for x in (tmp_path / "two" / "data" / "t.sql").read_text().splitlines() if "\t" in x]
    assert rows_one == rows_two
    blocks = (tmp_path / "two" / "data" / "t.sql").read_text().count("FROM STDIN")
    assert blocks == (1 if trap else 2)  # a cut inside a string: the script is read by one process
