"""The oracompat library's Oracle-supplied packages (DBMS_LOB, UTL_RAW, DBMS_CRYPTO.HASH, UTL_I18N,
DBMS_UTILITY, DBMS_RANDOM, DBMS_ASSERT, DBMS_APPLICATION_INFO, DBMS_SESSION, DBMS_SQL, SYS_CONTEXT) and SQL functions (NEXT_DAY,
REMAINDER, intervals, REGEXP match parameters, KEEP), deployed on a real PostgreSQL as the
execution role and held to the results the Oracle 19c references document."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
from decimal import Decimal

import psycopg
import pytest

from harness.engines.postgres import scratch_database
from migrator.convert.oracompat.packages import PACKAGES_SQL
from migrator.convert.oracompat.runtime import RUNTIME_SQL
from migrator.convert.oracompat.support import SUPPORT_SQL


def deploy_library(conn: psycopg.Connection) -> None:
    conn.execute(SUPPORT_SQL)
    conn.execute(RUNTIME_SQL)
    conn.execute(PACKAGES_SQL)


@pytest.fixture(scope="module")
def db(pg_engine):
    with scratch_database(pg_engine, prefix="orapkg") as dsn, psycopg.connect(dsn, autocommit=True) as conn:
        deploy_library(conn)
        yield conn


def one(conn, sql: str, *args):
    return conn.execute(sql, args).fetchone()[0]


def sqlstate(conn, sql: str, *args) -> str | None:
    try:
        conn.execute(sql, args)
    except psycopg.Error as exc:
        return exc.sqlstate
    return None


# ---- DBMS_LOB ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("oracompat.dbms_lob_getlength('abcdef'::text)", 6),
        ("oracompat.dbms_lob_getlength(''::text)", 0),  # an empty LOB has length 0, not NULL
        ("oracompat.dbms_lob_getlength(NULL::text)", None),
        ("oracompat.dbms_lob_getlength('\\x0102ff'::bytea)", 3),
        ("oracompat.dbms_lob_substr('abcdef'::text, 3, 2)", "bcd"),
        ("oracompat.dbms_lob_substr('abcdef'::text, 10, 5)", "ef"),
        ("oracompat.dbms_lob_substr('abcdef'::text)", "abcdef"),  # amount 32767, offset 1
        ("oracompat.dbms_lob_substr('abcdef'::text, 2, 7)", None),  # nothing left: NULL
        ("oracompat.dbms_lob_substr('abcdef'::text, 0, 1)", None),  # amount < 1: NULL
        ("oracompat.dbms_lob_substr('abcdef'::text, 32768, 1)", None),  # amount > 32767: NULL
        ("oracompat.dbms_lob_substr('abcdef'::text, 2, 0)", None),  # offset < 1: NULL
        ("oracompat.dbms_lob_instr('abcabc'::text, 'bc')", 2),
        ("oracompat.dbms_lob_instr('abcabc'::text, 'bc', 3)", 5),
        ("oracompat.dbms_lob_instr('abcabc'::text, 'bc', 1, 2)", 5),
        ("oracompat.dbms_lob_instr('aaa'::text, 'aa', 1, 2)", 2),  # overlapping matches count
        ("oracompat.dbms_lob_instr('abcabc'::text, 'x')", 0),
        ("oracompat.dbms_lob_instr('abcabc'::text, 'bc', 0)", None),  # offset < 1: NULL
        ("oracompat.dbms_lob_instr('abcabc'::text, 'bc', 1, 0)", None),  # nth < 1: NULL
        ("oracompat.dbms_lob_instr('\\x01020102'::bytea, '\\x0102'::bytea, 1, 2)", 3),
        ("oracompat.dbms_lob_compare('abc'::text, 'abc'::text)", 0),
        ("oracompat.dbms_lob_compare('abc'::text, 'abd'::text)", -1),
        ("oracompat.dbms_lob_compare('abd'::text, 'abc'::text)", 1),
        ("oracompat.dbms_lob_compare('Babc'::text, 'abc'::text, 3, 2, 1)", 0),
        ("oracompat.dbms_lob_compare('B'::text, 'a'::text)", -1),  # binary order: 'B' < 'a'
        ("oracompat.dbms_lob_compare('abc'::text, NULL::text)", None),
        ("oracompat.dbms_lob_compare('abc'::text, 'abc'::text, 0)", None),
    ],
)
def test_dbms_lob_functions(db, expr, expected):
    assert one(db, f"SELECT {expr}") == expected


def test_dbms_lob_procedures_update_their_in_out_arguments(db):
    assert one(db, "SELECT oracompat.dbms_lob_append('ab'::text, 'cd')") == "abcd"
    assert one(db, "SELECT oracompat.dbms_lob_append('\\x01'::bytea, '\\x02'::bytea)") == b"\x01\x02"
    assert one(db, "SELECT oracompat.dbms_lob_writeappend('ab'::text, 2, 'cdef')") == "abcd"
    assert one(db, "SELECT oracompat.dbms_lob_copy('abcdef'::text, 'XYZ', 2, 3, 2)") == "abYZef"
    # a destination offset past the end pads with spaces (CLOB) or zero bytes (BLOB)
    assert one(db, "SELECT oracompat.dbms_lob_copy('ab'::text, 'XYZ', 3, 5)") == "ab  XYZ"
    assert one(db, "SELECT oracompat.dbms_lob_copy('\\x01'::bytea, '\\x09'::bytea, 1, 3)") == b"\x01\x00\x09"
    assert one(db, "SELECT oracompat.dbms_lob_trim('abcdef'::text, 2)") == "ab"
    assert one(db, "SELECT oracompat.dbms_lob_trim('abcdef'::text, 0)") == ""  # empty, not NULL
    assert db.execute("SELECT * FROM oracompat.dbms_lob_erase('abcdef'::text, 2, 3)").fetchone() == ("ab  ef", 2)
    # the LOB ends first: amount comes back as what was erased
    assert db.execute("SELECT * FROM oracompat.dbms_lob_erase('abcdef'::text, 10, 5)").fetchone() == ("abcd  ", 2)
    assert db.execute("SELECT * FROM oracompat.dbms_lob_erase('\\x0102'::bytea, 1, 1)").fetchone() == (
        b"\x00\x02",
        1,
    )
    assert one(db, "SELECT oracompat.dbms_lob_createtemporary(NULL::text, true)") == ""
    assert one(db, "SELECT oracompat.dbms_lob_freetemporary('x'::text)") is None
    assert db.execute("SELECT * FROM oracompat.dbms_lob_read('abcdef'::text, 10, 4)").fetchone() == (3, "def")
    assert one(db, "SELECT oracompat.dbms_lob_write('abcdef'::text, 2, 5, 'XYZ')") == "abcdXY"
    assert one(db, "SELECT oracompat.dbms_lob_write('ab'::text, 1, 4, 'X')") == "ab X"


def test_dbms_lob_convert_between_clob_and_blob(db):
    """CONVERTTOBLOB/CONVERTTOCLOB: characters ↔ bytes in BLOB_CSID's character set, written over
    the destination at DEST_OFFSET; the offsets come back past what was written and read, WARNING
    says whether a character had to be replaced (PL/SQL Packages and Types Reference, DBMS_LOB)."""
    to_blob = "SELECT * FROM oracompat.dbms_lob_converttoblob(%s::bytea, %s, %s, %s, %s, %s, 0)"
    # DEFAULT_CSID (0): the database character set, UTF-8 here: é is two bytes
    assert db.execute(to_blob, (b"", "hé!", 18446744073709551615, 1, 1, 0)).fetchone() == (b"h\xc3\xa9!", 5, 4, 0, 0)
    # AMOUNT characters from SRC_OFFSET, written over the destination at DEST_OFFSET
    assert db.execute(to_blob, (b"\x00\x00\x00\x00", "abcd", 2, 2, 2, 873)).fetchone() == (b"\x00bc\x00", 4, 4, 0, 0)
    # WE8ISO8859P1 (31): é is one byte; US7ASCII (1) cannot hold it: '?' and WARN_INCONVERTIBLE_CHAR
    assert db.execute(to_blob, (b"", "é", 1, 1, 1, 31)).fetchone()[0] == b"\xe9"
    assert db.execute(to_blob, (b"", "aé", 2, 1, 1, 1)).fetchone() == (b"a?", 3, 3, 0, 1)
    to_clob = "SELECT * FROM oracompat.dbms_lob_converttoclob(%s::text, %s::bytea, %s, %s, %s, %s, 0)"
    assert db.execute(to_clob, ("", b"h\xc3\xa9!", 18446744073709551615, 1, 1, 0)).fetchone() == ("hé!", 4, 5, 0, 0)
    assert db.execute(to_clob, ("xyz", b"\xe9", 1, 2, 1, 31)).fetchone() == ("xéz", 3, 2, 0, 0)
    # invalid UTF-8 becomes U+FFFD, the rest is read
    assert db.execute(to_clob, ("", b"a\xffb", 3, 1, 1, 873)).fetchone() == ("a\ufffdb", 4, 4, 0, 1)
    assert sqlstate(db, to_blob, b"", "x", 1, 1, 1, 2000) == "OS560"  # a character set not known here
    assert sqlstate(db, to_blob, None, "x", 1, 1, 1, 0) == "22003"


def test_dbms_lob_errors(db):
    value_error, invalid_argval = "22003", "OS560"
    assert sqlstate(db, "SELECT oracompat.dbms_lob_append(NULL::text, 'x')") == value_error
    assert sqlstate(db, "SELECT oracompat.dbms_lob_append('x'::text, NULL)") == value_error
    assert sqlstate(db, "SELECT oracompat.dbms_lob_writeappend('x'::text, 5, 'ab')") == invalid_argval
    assert sqlstate(db, "SELECT oracompat.dbms_lob_writeappend('x'::text, 0, 'ab')") == invalid_argval
    assert sqlstate(db, "SELECT oracompat.dbms_lob_trim('abc'::text, 4)") == "OS926"  # ORA-22926
    assert sqlstate(db, "SELECT oracompat.dbms_lob_copy('abc'::text, 'x', 0)") == invalid_argval
    assert sqlstate(db, "SELECT * FROM oracompat.dbms_lob_read('abc'::text, 2, 4)") == "P0002"  # NO_DATA_FOUND
    assert sqlstate(db, "SELECT * FROM oracompat.dbms_lob_erase('abc'::text, 0, 1)") == invalid_argval


# ---- UTL_RAW -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("oracompat.utl_raw_cast_to_raw('AB')", b"AB"),
        ("oracompat.utl_raw_cast_to_varchar2('\\x4142'::bytea)", "AB"),
        ("oracompat.utl_raw_cast_to_raw(NULL)", None),
        ("oracompat.utl_raw_length('\\x010203'::bytea)", 3),
        ("oracompat.utl_raw_concat('\\x01'::bytea, NULL, '\\x02'::bytea)", b"\x01\x02"),
        ("oracompat.utl_raw_concat(NULL::bytea, NULL::bytea)", None),
        ("oracompat.utl_raw_substr('\\x0102030405'::bytea, 2, 3)", b"\x02\x03\x04"),
        ("oracompat.utl_raw_substr('\\x0102030405'::bytea, -2)", b"\x04\x05"),
        ("oracompat.utl_raw_substr('\\x0102030405'::bytea, 4)", b"\x04\x05"),
        ("oracompat.utl_raw_bit_and('\\x0f0f'::bytea, '\\xff'::bytea)", b"\x0f\x0f"),
        ("oracompat.utl_raw_bit_or('\\x0f'::bytea, '\\xf0aa'::bytea)", b"\xff\xaa"),
        ("oracompat.utl_raw_bit_xor('\\xff00'::bytea, '\\x0f0f'::bytea)", b"\xf0\x0f"),
        ("oracompat.utl_raw_bit_complement('\\x0f'::bytea)", b"\xf0"),
        ("oracompat.utl_raw_bit_xor('\\xff'::bytea, NULL)", None),
        ("oracompat.utl_raw_compare('\\x010203'::bytea, '\\x010203'::bytea)", 0),
        ("oracompat.utl_raw_compare('\\x010203'::bytea, '\\x0109'::bytea)", 2),
        ("oracompat.utl_raw_compare('\\x0100'::bytea, '\\x01'::bytea)", 0),  # padded with 0x00
        ("oracompat.utl_raw_compare('\\x01ff'::bytea, '\\x01'::bytea, '\\xff'::bytea)", 0),
        ("oracompat.utl_raw_reverse('\\x010203'::bytea)", b"\x03\x02\x01"),
        ("oracompat.utl_raw_copies('\\x0a'::bytea, 3)", b"\x0a\x0a\x0a"),
        ("oracompat.utl_raw_cast_from_binary_integer(258)", b"\x00\x00\x01\x02"),
        ("oracompat.utl_raw_cast_from_binary_integer(258, 2)", b"\x02\x01\x00\x00"),
        ("oracompat.utl_raw_cast_from_binary_integer(-1)", b"\xff\xff\xff\xff"),
        ("oracompat.utl_raw_cast_to_binary_integer('\\xffffffff'::bytea)", -1),
        ("oracompat.utl_raw_cast_to_binary_integer('\\x02010000'::bytea, 2)", 258),
        ("oracompat.to_text('\\x0aff'::bytea)", "0AFF"),  # RAW as text: Oracle's hex form
    ],
)
def test_utl_raw(db, expr, expected):
    got = one(db, f"SELECT {expr}")
    assert (bytes(got) if isinstance(got, memoryview) else got) == expected


def test_utl_raw_errors(db):
    for expr in (
        "oracompat.utl_raw_substr('\\x0102'::bytea, 0)",  # pos 0
        "oracompat.utl_raw_substr('\\x0102'::bytea, 3)",  # pos beyond the end
        "oracompat.utl_raw_substr('\\x0102'::bytea, 1, 3)",  # len beyond the end
        "oracompat.utl_raw_reverse(NULL)",
        "oracompat.utl_raw_copies('\\x01'::bytea, 0)",
    ):
        assert sqlstate(db, f"SELECT {expr}") == "22003", expr  # VALUE_ERROR
    assert sqlstate(db, "SELECT oracompat.utl_raw_cast_from_binary_integer(1, 3)") == "22023"


# ---- DBMS_UTILITY ------------------------------------------------------------------------------
# ---- DBMS_CRYPTO.HASH, UTL_I18N ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        # the standard test vectors (RFC 1321, FIPS 180-2) for 'abc'
        ("encode(oracompat.dbms_crypto_hash('\\x616263'::bytea, 2), 'hex')", "900150983cd24fb0d6963f7d28e17f72"),
        (
            "encode(oracompat.dbms_crypto_hash('\\x616263'::bytea, 4), 'hex')",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        ),
        ("octet_length(oracompat.dbms_crypto_hash('\\x616263'::bytea, 5))", 48),
        ("octet_length(oracompat.dbms_crypto_hash('\\x616263'::bytea, 6))", 64),
        # a CLOB is hashed as its AL32UTF8 bytes: 'é' is C3 A9
        ("oracompat.dbms_crypto_hash('\u00e9'::text, 4) = sha256('\\xc3a9'::bytea)", True),
        ("oracompat.dbms_crypto_hash(NULL::bytea, 4)", None),
        ("encode(oracompat.utl_i18n_string_to_raw('h\u00e9', 'WE8ISO8859P1'), 'hex')", "68e9"),
        ("encode(oracompat.utl_i18n_string_to_raw('h\u00e9', 'AL32UTF8'), 'hex')", "68c3a9"),
        ("encode(oracompat.utl_i18n_string_to_raw('h\u00e9', 'US7ASCII'), 'hex')", "683f"),  # replaced
        ("encode(oracompat.utl_i18n_string_to_raw('h\u00e9'), 'hex')", "68c3a9"),  # the database's set
        ("oracompat.utl_i18n_string_to_raw(NULL, 'AL32UTF8')", None),
        ("oracompat.utl_i18n_raw_to_char('\\x68c3a9'::bytea, 'AL32UTF8')", "h\u00e9"),
        ("oracompat.utl_i18n_raw_to_char('\\x68e9'::bytea, 'WE8ISO8859P1')", "h\u00e9"),
        ("oracompat.utl_i18n_raw_to_char(NULL::bytea, 'AL32UTF8')", None),
    ],
)
def test_crypto_hash_and_i18n(db, expr, expected):
    assert one(db, f"SELECT {expr}") == expected


@pytest.mark.parametrize(("typ", "algo"), [(1, "md5"), (2, "sha1"), (3, "sha256"), (4, "sha384"), (5, "sha512")])
@pytest.mark.parametrize("key", [b"key", b"k" * 64, b"long key " * 20])
def test_mac_is_hmac(db, typ, algo, key):
    """DBMS_CRYPTO.MAC is RFC 2104 HMAC: against Python's hmac, short, block-sized and long keys."""
    data = b"The quick brown fox jumps over the lazy dog"
    got = one(db, "SELECT oracompat.dbms_crypto_mac(%s::bytea, %s, %s::bytea)", data, typ, key)
    assert bytes(got) == hmac.new(key, data, algo).digest()


@pytest.mark.parametrize("size", [0, 1, 2, 3, 47, 48, 49, 96, 100, 500])
def test_base64_lines_and_round_trip(db, size):
    """64 characters a line: CR LF after the text of each 48 input bytes, none after a shorter
    last group; decoding skips the line ends and gives the bytes back."""
    data = bytes((7 * i + 3) % 256 for i in range(size))
    encoded = bytes(one(db, "SELECT oracompat.utl_encode_base64_encode(%s::bytea)", data))
    groups = [data[k : k + 48] for k in range(0, len(data), 48)]
    expected = b"".join(base64.b64encode(g) + (b"\r\n" if len(g) == 48 else b"") for g in groups)
    assert encoded == expected
    assert bytes(one(db, "SELECT oracompat.utl_encode_base64_decode(%s::bytea)", encoded)) == data


def test_crypto_and_i18n_refuse_what_they_cannot_do(db):
    # MD4 needs pgcrypto: an error naming the algorithm, never another digest
    assert sqlstate(db, "SELECT oracompat.dbms_crypto_hash('\\x61'::bytea, 1)") == "OS560"


@pytest.mark.parametrize(
    "data", [b"", b"abc", b"The quick brown fox jumps over the lazy dog", b"a" * 1000, bytes(range(256)) * 3]
)
def test_sha1_is_sha1(db, data):
    """DBMS_CRYPTO.HASH_SH1 without pgcrypto: our SHA-1 against Python's, across block boundaries."""
    assert bytes(one(db, "SELECT oracompat.dbms_crypto_hash(%s::bytea, 3)", data)) == hashlib.sha1(data).digest()
    assert sqlstate(db, "SELECT oracompat.utl_i18n_string_to_raw('a', 'JA16SJIS')") == "OS560"


def test_dbms_utility_comma_to_table_and_back(db):
    tablen, tab = db.execute("SELECT * FROM oracompat.dbms_utility_comma_to_table('a,b.c,\"x y\"')").fetchone()
    assert tablen == 3
    # names 1..tablen, and the NULL Oracle leaves at tablen + 1
    assert tab == {"1": "a", "2": "b.c", "3": '"x y"', "4": None}
    assert db.execute(
        "SELECT * FROM oracompat.dbms_utility_table_to_comma(%s::jsonb)", (psycopg.types.json.Jsonb(tab),)
    ).fetchone() == (
        3,
        'a,b.c,"x y"',
    )
    assert sqlstate(db, "SELECT * FROM oracompat.dbms_utility_comma_to_table('a,1b')") == "O2001"  # ORA-20001


def test_dbms_utility_time_and_error_stacks(db):
    t1 = one(db, "SELECT oracompat.dbms_utility_get_time()")
    t2 = one(db, "SELECT oracompat.dbms_utility_get_time() FROM pg_sleep(0.05)")
    assert 3 <= t2 - t1 <= 100 and -(2**31) <= t1 < 2**31  # hundredths of a second
    assert one(db, "SELECT oracompat.dbms_utility_format_error_stack('P0002', 'x')") == "ORA-01403: no data found\n"
    assert one(db, "SELECT oracompat.dbms_utility_format_error_stack('O2042', 'boom')") == "ORA-20042: boom\n"
    context = "PL/pgSQL function util.fail(integer) line 4 at RAISE\nPL/pgSQL function util.run() line 2 at PERFORM"
    assert one(db, "SELECT oracompat.dbms_utility_format_error_backtrace(%s)", context) == (
        'ORA-06512: at "UTIL.FAIL", line 4\nORA-06512: at "UTIL.RUN", line 2\n'
    )
    db.execute(
        "CREATE OR REPLACE FUNCTION public.who_calls() RETURNS text LANGUAGE plpgsql AS "
        "$$ BEGIN RETURN oracompat.dbms_utility_format_call_stack(); END $$"
    )
    stack = one(db, "SELECT public.who_calls()")
    assert stack.startswith("----- PL/SQL Call Stack -----\n") and "  1  WHO_CALLS" in stack


# ---- DBMS_RANDOM -------------------------------------------------------------------------------
def test_dbms_random_ranges(db):
    rows = db.execute(
        "SELECT oracompat.dbms_random_value(), oracompat.dbms_random_value(5, 7), oracompat.dbms_random_random(),"
        " oracompat.dbms_random_string('x', 12), oracompat.dbms_random_string('l', 3), oracompat.dbms_random_normal()"
        " FROM generate_series(1, 200)"
    ).fetchall()
    for v, ranged, r, s, low, _normal in rows:
        assert 0 <= v < 1 and 5 <= ranged < 7 and -(2**31) <= r < 2**31
        assert len(s) == 12 and s.isalnum() and s.upper() == s
        assert len(low) == 3 and low.islower()
    assert len({row[0] for row in rows}) > 150  # random, not a constant
    assert one(db, "SELECT oracompat.dbms_random_string('u', 0)") is None
    db.execute("SELECT oracompat.dbms_random_seed('abc')")
    first = one(db, "SELECT oracompat.dbms_random_value()")
    db.execute("SELECT oracompat.dbms_random_seed('abc')")
    assert one(db, "SELECT oracompat.dbms_random_value()") == first  # a seed repeats its sequence


# ---- DBMS_ASSERT -------------------------------------------------------------------------------
def test_dbms_assert(db):
    assert one(db, "SELECT oracompat.dbms_assert_simple_sql_name('emp_1$')") == "emp_1$"
    assert one(db, "SELECT oracompat.dbms_assert_simple_sql_name('\"My Table\"')") == '"My Table"'
    assert one(db, "SELECT oracompat.dbms_assert_qualified_sql_name('hr.emp@remote')") == "hr.emp@remote"
    assert one(db, "SELECT oracompat.dbms_assert_enquote_name('emp')") == '"EMP"'
    assert one(db, "SELECT oracompat.dbms_assert_enquote_name('emp', false)") == '"emp"'
    assert one(db, "SELECT oracompat.dbms_assert_enquote_name('\"Emp\"')") == '"Emp"'
    assert one(db, "SELECT oracompat.dbms_assert_enquote_literal('it''''s')") == "'it''s'"
    assert one(db, "SELECT oracompat.dbms_assert_schema_name('ORACOMPAT')") == "ORACOMPAT"
    assert one(db, "SELECT oracompat.dbms_assert_sql_object_name('oracompat.instr')") == "oracompat.instr"
    assert one(db, "SELECT oracompat.dbms_assert_noop('1; DROP')") == "1; DROP"
    assert sqlstate(db, "SELECT oracompat.dbms_assert_simple_sql_name('1abc')") == "OS443"  # ORA-44003
    assert sqlstate(db, "SELECT oracompat.dbms_assert_simple_sql_name('a; drop table x')") == "OS443"
    assert sqlstate(db, "SELECT oracompat.dbms_assert_qualified_sql_name('a..b')") == "OS444"
    assert sqlstate(db, "SELECT oracompat.dbms_assert_enquote_name('a\"b')") == "OS443"
    assert sqlstate(db, "SELECT oracompat.dbms_assert_enquote_literal('it''s')") == "22003"
    assert sqlstate(db, "SELECT oracompat.dbms_assert_schema_name('NO_SUCH_SCHEMA')") == "OS441"
    assert sqlstate(db, "SELECT oracompat.dbms_assert_sql_object_name('no_such_thing')") == "OS442"


# ---- DBMS_APPLICATION_INFO, DBMS_SESSION, SYS_CONTEXT -------------------------------------------
def test_application_info_session_and_sys_context(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_library(conn)
        conn.execute("SELECT oracompat.dbms_application_info_set_module('payroll', 'close month')")
        conn.execute("SELECT oracompat.dbms_application_info_set_client_info('batch 7')")
        conn.execute("SELECT oracompat.dbms_session_set_context('app_ctx', 'tenant', 'acme')")
        conn.execute("SELECT oracompat.dbms_session_set_identifier('ann')")
        conn.execute("BEGIN")
        conn.execute("SELECT oracompat.dbms_application_info_set_action('rolled back?')")
        conn.execute("ROLLBACK")  # session values, like Oracle's, survive a rollback
        assert conn.execute("SELECT * FROM oracompat.dbms_application_info_read_module()").fetchone() == (
            "payroll",
            "rolled back?",
        )
        got = conn.execute(
            "SELECT oracompat.sys_context('USERENV', 'MODULE'), oracompat.sys_context('userenv', 'client_info'),"
            " oracompat.sys_context('APP_CTX', 'TENANT'), oracompat.sys_context('app_ctx', 'missing'),"
            " oracompat.sys_context('USERENV', 'CLIENT_IDENTIFIER'), oracompat.sys_context('USERENV', 'CURRENT_SCHEMA'),"
            " oracompat.sys_context('USERENV', 'SESSION_USER') = upper(session_user),"
            " oracompat.sys_context('USERENV', 'NLS_DATE_FORMAT'), oracompat.sys_context('USERENV', 'MODULE', 3),"
            " current_setting('application_name')"
        ).fetchone()
        assert got == ("payroll", "batch 7", "acme", None, "ann", "PUBLIC", True, "DD-MON-RR", "pay", "payroll")
        assert sqlstate(conn, "SELECT oracompat.sys_context('USERENV', 'NO_SUCH')") == "OS203"  # ORA-02003
        conn.execute("SELECT oracompat.dbms_session_clear_context('APP_CTX')")
        assert one(conn, "SELECT oracompat.sys_context('APP_CTX', 'TENANT')") is None


# ---- DBMS_SQL ----------------------------------------------------------------------------------
def test_dbms_sql_cycle(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_library(conn)
        conn.execute(
            "CREATE TABLE t (id integer, name varchar(40), born timestamp(0));"
            "INSERT INTO t VALUES (1, 'ann', '2020-01-02 03:04:05'), (2, 'bob', NULL), (3, 'o''neil', NULL)"
        )
        conn.execute(
            """
CREATE FUNCTION names_after(p_id numeric) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    c numeric := oracompat.dbms_sql_open_cursor();
    n integer;
    v_id numeric;
    v_name varchar(20);
    v_born timestamp(0);
    out text := '';
BEGIN
    PERFORM oracompat.dbms_sql_parse(c, 'SELECT id, name, born FROM t WHERE id > :min_id ORDER BY id', 1);
    PERFORM oracompat.dbms_sql_bind_variable(c, ':MIN_ID', p_id);
    PERFORM oracompat.dbms_sql_define_column(c, 1, v_id);
    PERFORM oracompat.dbms_sql_define_column(c, 2, v_name, 20);
    n := oracompat.dbms_sql_execute(c);
    WHILE oracompat.dbms_sql_fetch_rows(c) > 0 LOOP
        v_id := oracompat.dbms_sql_column_value(c, 1, v_id);
        v_name := oracompat.dbms_sql_column_value(c, 2, v_name);
        v_born := oracompat.dbms_sql_column_value(c, 3, v_born);
        out := out || v_id || '=' || v_name || '@' || coalesce(v_born::text, '-') || ';';
    END LOOP;
    out := out || 'rows:' || oracompat.dbms_sql_last_row_count() || ' exec:' || n;
    c := oracompat.dbms_sql_close_cursor(c);
    RETURN out || ' open:' || oracompat.dbms_sql_is_open(c)::text;
END $$"""
        )
        assert one(conn, "SELECT names_after(0)") == (
            "1=ann@2020-01-02 03:04:05;2=bob@-;3=o'neil@-;rows:3 exec:0 open:false"
        )
        assert one(conn, "SELECT names_after(2)") == "3=o'neil@-;rows:1 exec:0 open:false"
        # DML: the rows processed; a bind value is data, never SQL text
        c = one(conn, "SELECT oracompat.dbms_sql_open_cursor()")
        conn.execute("SELECT oracompat.dbms_sql_parse(%s, 'UPDATE t SET name = :n WHERE id <= :id', 1)", (c,))
        conn.execute("SELECT oracompat.dbms_sql_bind_variable(%s, 'n', %s::text)", (c, "x'); DROP TABLE t; --"))
        conn.execute("SELECT oracompat.dbms_sql_bind_variable(%s, 'ID', 2)", (c,))
        assert one(conn, "SELECT oracompat.dbms_sql_execute(%s)", c) == 2
        assert one(conn, "SELECT count(*) FROM t WHERE name = 'x''); DROP TABLE t; --'") == 2
        # DDL runs at PARSE
        conn.execute("SELECT oracompat.dbms_sql_parse(%s, 'CREATE TABLE made_by_parse (x integer)', 1)", (c,))
        assert one(conn, "SELECT to_regclass('made_by_parse') IS NOT NULL") is True
        # errors: unbound variable, unknown bind name, no such column, a closed cursor
        conn.execute("SELECT oracompat.dbms_sql_parse(%s, 'SELECT :a FROM t', 1)", (c,))
        assert sqlstate(conn, "SELECT oracompat.dbms_sql_execute(%s)", c) == "OS108"  # ORA-01008
        assert sqlstate(conn, "SELECT oracompat.dbms_sql_bind_variable(%s, 'b', 1)", c) == "OS106"  # ORA-01006
        conn.execute("SELECT oracompat.dbms_sql_bind_variable(%s, 'a', 1)", (c,))
        conn.execute("BEGIN")
        assert one(conn, "SELECT oracompat.dbms_sql_execute_and_fetch(%s)", c) == 1
        assert sqlstate(conn, "SELECT oracompat.dbms_sql_column_value(%s, 2, 0)", c) == "OS107"  # ORA-01007
        conn.execute("ROLLBACK")
        conn.execute("SELECT oracompat.dbms_sql_close_cursor(%s)", (c,))
        assert sqlstate(conn, "SELECT oracompat.dbms_sql_execute(%s)", c) == "OS471"  # ORA-29471


# ---- SQL functions -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        # NEXT_DAY: strictly after, time kept; names in English, full or abbreviated
        ("oracompat.next_day('2024-03-13 10:30:00'::timestamp, 'FRIDAY')", dt.datetime(2024, 3, 15, 10, 30)),
        ("oracompat.next_day('2024-03-13 00:00:00'::timestamp, 'wed')", dt.datetime(2024, 3, 20)),
        ("oracompat.next_day('2024-03-16'::timestamp, 'Sunday')", dt.datetime(2024, 3, 17)),
        # REMAINDER rounds n2/n1 to the nearest integer (half to even); MOD would floor
        ("oracompat.remainder(11, 4)", Decimal(-1)),
        ("oracompat.remainder(10, 4)", Decimal(2)),  # 2.5 → 2
        ("oracompat.remainder(14, 4)", Decimal(-2)),  # 3.5 → 4
        ("oracompat.remainder(-11, 4)", Decimal(1)),
        ("oracompat.remainder(5.5, 2)", Decimal("-0.5")),
        ("oracompat.numtodsinterval(36, 'hour')", dt.timedelta(days=1, hours=12)),
        ("oracompat.numtodsinterval(1.5, 'DAY')", dt.timedelta(days=1, hours=12)),
        ("oracompat.numtoyminterval(18, 'MONTH') = interval '1 year 6 months'", True),
        ("oracompat.numtoyminterval(1.5, 'year') = interval '18 months'", True),
        ("oracompat.to_interval('2 10:00:00')", dt.timedelta(days=2, hours=10)),
        ("oracompat.to_interval('-2 10:00:00')", -dt.timedelta(days=2, hours=10)),
        ("oracompat.to_interval('P1DT2H')", dt.timedelta(days=1, hours=2)),
        ("oracompat.to_interval('01-02') = interval '1 year 2 months'", True),
        ("oracompat.to_interval('-01-02') = -interval '1 year 2 months'", True),
        # match parameters: default p, n alone nothing, m alone n, both w; i/c last wins
        ("oracompat.regexp_flags(NULL)", "p"),
        ("oracompat.regexp_flags('n')", ""),
        ("oracompat.regexp_flags('m')", "n"),
        ("oracompat.regexp_flags('nm')", "w"),
        ("oracompat.regexp_flags('ic')", "p"),
        ("oracompat.regexp_flags('ci')", "ip"),
        ("oracompat.regexp_pattern('a b [ c]\\ d', 'x')", "ab[ c]\\ d"),
        ("oracompat.regexp_replace('aaaa', 'a', 'b', 2, 0, 'p')", "abbb"),
        ("oracompat.regexp_replace('aaaa', 'a', 'b', 1, 3, 'p')", "aaba"),
        ("oracompat.regexp_replace('abc', 'x', 'y', 1, 1, 'p')", "abc"),
        ("oracompat.regexp_replace('aa', 'a', NULL, 1, 0, 'p')", None),  # everything removed: NULL
    ],
)
def test_sql_functions(db, expr, expected):
    assert one(db, f"SELECT {expr}") == expected


def test_sql_function_errors(db):
    assert sqlstate(db, "SELECT oracompat.next_day(now()::timestamp, 'FRYDAY')") == "OS846"  # ORA-01846
    assert sqlstate(db, "SELECT oracompat.remainder(1, 0)") == "22012"  # ORA-01476
    assert sqlstate(db, "SELECT oracompat.numtodsinterval(1, 'WEEK')") == "OS760"  # ORA-01760
    assert sqlstate(db, "SELECT oracompat.regexp_flags('q')") == "OS760"


def test_keep_helpers(db):
    db.execute("CREATE TEMP TABLE k (g integer, v integer, o integer, o2 text)")
    db.execute("INSERT INTO k VALUES (1, 5, 1, 'b'), (1, 7, 1, 'a'), (1, 9, 2, 'a'), (2, 3, NULL, 'a'), (2, 4, 3, 'a')")
    got = db.execute(
        "SELECT g, oracompat.keep_max(array_agg(v ORDER BY o), array_agg(o ORDER BY o)),"
        " oracompat.keep_min(array_agg(v ORDER BY o DESC), array_agg(o ORDER BY o DESC)),"
        " oracompat.keep_sum(array_agg(v ORDER BY o, o2), array_agg(ROW(o, o2) ORDER BY o, o2)),"
        " oracompat.keep_count(array_agg(v ORDER BY o), array_agg(o ORDER BY o))"
        " FROM k GROUP BY g ORDER BY g"
    ).fetchall()
    # DENSE_RANK FIRST ORDER BY o: group 1 ties at o = 1 (5, 7); NULLs sort last ascending,
    # first descending (group 2, LAST: the NULL key)
    assert got == [(1, 7, 9, Decimal(7), Decimal(2)), (2, 4, 3, Decimal(4), Decimal(1))]
