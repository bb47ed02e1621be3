"""The content checksum (migrator.data.checksum) on a real PostgreSQL: the sum over the COPY lines
sent equals the sum read back from the table for every type's value forms, and differs as soon as
one stored value differs."""

from __future__ import annotations

import random

import psycopg
import pytest

from migrator.data import checksum, copy_text

COLUMNS = """i integer, b bigint, n numeric, n2 numeric(12,2), f double precision, r real, ok boolean,
  d date, ts timestamp(6), tz timestamptz, c char(4), v varchar(50), t text, raw bytea"""

ROWS = [
    [
        "42",
        "-9000000000",
        "1.6E3",
        "12.50",
        "0.1",
        "0.1",
        "yes",
        "2020-02-29",
        "2020-01-02 10:11:12.123456789",
        "2020-01-02 10:11:12.5 -03:30",
        "ab",
        "it's\ttab",
        "back\\slash\nnewline",
        b"\n\x0b",
    ],
    [
        "007",
        "+5",
        "-0.000120",
        "0",
        "1e15",
        "3.4e38",
        "f",
        "1999-12-31 00:00:00",
        "2020-01-02",
        "2020-06-01 00:00:00 Europe/Madrid",
        "abcd",
        "ctl\b\f\v",
        "Schäfer",
        b"",
    ],
    [
        "0",
        "0",
        "1E-7",
        "-1",
        "123.0",
        "-2.5",
        "on",
        "0001-01-01",
        "2020-01-02 23:59:59.9999995",
        "2020-01-02 10:11:12 +00:00",
        " x  ",
        "",
        "",
        b"\xff",
    ],
    [None] * 14,
]


def _sums(dsn: str, lines: list[str]) -> tuple[int, int]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        with conn.cursor().copy("COPY sample FROM STDIN") as copy:
            copy.write("".join(lines).encode("utf-8"))
        cols = checksum.table_columns(conn, "sample", None)
        sent = checksum.lines_sum(
            [line.encode("utf-8") for line in lines], [checksum.source_canon(c.type_name) for c in cols]
        )
        with conn.transaction():
            loaded = checksum.loaded_sum(conn, "sample", cols)
    return sent, loaded


def test_sent_and_loaded_sums_agree_for_every_type(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE sample ({COLUMNS})")
    sent, loaded = _sums(pg_dsn, [copy_text.line(r) for r in ROWS])
    assert sent == loaded
    with psycopg.connect(pg_dsn, autocommit=True) as conn:  # one stored value other than sent
        conn.execute("UPDATE sample SET tz = tz + interval '1 microsecond' WHERE i = 42")
        cols = checksum.table_columns(conn, "sample", None)
        with conn.transaction():
            assert checksum.loaded_sum(conn, "sample", cols) != loaded


def test_a_value_stored_rounded_makes_the_sums_differ(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE sample ({COLUMNS})")
    row = list(ROWS[0])
    row[3] = "1.234"  # numeric(12,2) stores 1.23
    sent, loaded = _sums(pg_dsn, [copy_text.line(row)])
    assert sent != loaded


def test_floats_agree_whatever_their_decimal_text(pg_dsn):
    # two shortest decimal texts of one double can differ (Python 7.23062248052174e+16, PostgreSQL
    # 7.230622480521741e+16): the checksum compares the bits
    rnd = random.Random(3)
    values = ["0.1", "1e15", "7.23062248052174e+16", "123.0", "1e-4", "-2.5e-300", "5e-324", "-0", "NaN", "Infinity"]
    values += [repr(rnd.uniform(-1, 1) * 10 ** rnd.randint(-30, 30)) for _ in range(300)]
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE sample (f double precision, r real)")
    rows = [copy_text.line([v, v if 1e-37 < abs(float(v)) < 1e38 else "1"]) for v in values]
    sent, loaded = _sums(pg_dsn, rows)
    assert sent == loaded


def test_oracle_query_covers_the_types_it_can_and_refuses_the_rest():
    cols = [("\"ID\"", checksum.Column("id", "numeric")), ("\"AT\"", checksum.Column("at", "timestamp with time zone")),
            ("\"NOTE\"", checksum.Column("note", "character varying"))]  # fmt: skip
    query = checksum.oracle_checksum_query('"EMP"', cols)
    assert query is not None and query.count("DBMS_CRYPTO.HASH(") == 1 and "SYS_EXTRACT_UTC" in query
    assert checksum.oracle_checksum_query('"EMP"', cols + [('"B"', checksum.Column("b", "boolean"))]) is None


@pytest.mark.parametrize("frac", ["5", "500000", "0000001", "9999996"])
def test_timestamp_fraction_rounds_as_postgresql_stores_it(pg_dsn, frac):
    text = f"2020-01-02 10:11:12.{frac}"
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        stored = conn.execute("SELECT %s::timestamp::text", (text,)).fetchone()
    assert stored is not None and checksum.source_canon("timestamp without time zone")(text) == stored[0]  # type: ignore[misc]


def test_server_side_sum_writes_values_as_copy_does(pg_dsn):
    # the loaded side is one SELECT on the server: its line must be COPY TO's for every type,
    # including those whose cast to text is not their output (boolean, inet) and every escape
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE sample (ok boolean, addr inet, t text, j jsonb, a int[], iv interval)")
    rows = [
        ["t", "10.0.0.1", "a\\b\tc\nd\re\bf\fg\vh", '{"k": "v\\\\n"}', "{1,NULL}", "1 day 02:00:00"],
        ["f", "10.0.0.0/8", "\x01 raw control", "[]", "{}", "-00:00:01"],
        [None] * 6,
    ]
    sent, loaded = _sums(pg_dsn, [copy_text.line(r) for r in rows])
    assert sent == loaded
    with psycopg.connect(pg_dsn, autocommit=True) as conn:  # the server's sum is the Python one over COPY TO
        with conn.cursor().copy("COPY sample TO STDOUT") as copy:
            copied = b"".join(bytes(c) for c in copy)
    assert checksum.lines_sum(copied.splitlines(keepends=True), [None] * 6) == loaded


def test_numeric_canon_moves_digits_as_decimal_does():
    # the string path of _numeric (exponents, trailing and leading zeros) against Decimal's
    # normalize, on every literal form: signs, bare points, exponents, past 28 digits
    rnd = random.Random(28)
    texts = ["0", "-0", "007", ".5", "5.", "1E+100", "1e-100", "-0.000120", "1234.5670", "1.6E3", "+5", " 1.5 ",
             "NaN", "1e", ".", "-", "1.2.3", "12345678901234567890123456789.5", "0." + "0" * 40 + "1" * 30]  # fmt: skip
    for _ in range(20000):
        whole = "".join(rnd.choice("0123456789") for _ in range(rnd.randint(0, 12)))
        frac = "".join(rnd.choice("0012345679") for _ in range(rnd.randint(0, 12)))
        exp = f"{rnd.choice('eE')}{rnd.choice(['', '+', '-'])}{rnd.randint(0, 40)}" if rnd.random() < 0.5 else ""
        texts.append(rnd.choice(["", "-"]) + whole + ("." + frac if rnd.random() < 0.7 else "") + exp)
    for text in texts:
        assert checksum._numeric(text) == checksum._numeric_decimal(text), text


def test_negative_zero_is_stored_as_zero(pg_dsn):
    # Oracle exports may write -0 (and -0E5); PostgreSQL keeps no negative zero in integers or
    # numeric; and a number of more than 28 digits is kept whole (Decimal's default context rounds)
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE sample (i integer, n numeric, n2 numeric(5,2))")
    rows = [["-0", "-0", "-0.00"], ["0", "-0E5", "-0.0"], ["1", "1234567890123456789012345678901234560E-7", "1"]]
    sent, loaded = _sums(pg_dsn, [copy_text.line(r) for r in rows])
    assert sent == loaded
