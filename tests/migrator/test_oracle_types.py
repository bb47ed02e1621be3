"""migrator.oracle_types: the parser on every spelling, the families, and a guard that no other
module under migrator/ names a family of Oracle types again."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from migrator.oracle_types import (
    NAMES,
    NUMBER_NAMES,
    TEXT_NAMES,
    Family,
    OracleType,
    first_word,
    is_clob,
    names,
    parse,
    postgres_type,
    takes_no_scalar,
    takes_text_only,
)

D, PI, BF = Family.DECIMAL, Family.PLS_INTEGER, Family.BINARY_FLOAT
V, C, CL, B = Family.VARCHAR, Family.CHAR, Family.CLOB, Family.BINARY

SPELLINGS = [
    # NUMBER: precision, scale, the * precision, blanks and case as written
    ("NUMBER", OracleType("NUMBER", D)),
    ("number", OracleType("NUMBER", D)),
    ("NUMBER(10)", OracleType("NUMBER", D, precision=10)),
    ("NUMBER ( 12 , 2 )", OracleType("NUMBER", D, precision=12, scale=2)),
    ("NUMBER(5,-2)", OracleType("NUMBER", D, precision=5, scale=-2)),
    ("NUMBER(*)", OracleType("NUMBER", D, precision="*")),
    ("NUMBER(*,2)", OracleType("NUMBER", D, precision="*", scale=2)),
    ("NUMERIC(10,2)", OracleType("NUMERIC", D, precision=10, scale=2)),
    ("DECIMAL(8)", OracleType("DECIMAL", D, precision=8)),
    ("DEC(3,1)", OracleType("DEC", D, precision=3, scale=1)),
    ("INTEGER", OracleType("INTEGER", D)),
    ("INT", OracleType("INT", D)),
    ("SMALLINT", OracleType("SMALLINT", D)),
    ("FLOAT", OracleType("FLOAT", D)),
    ("FLOAT(126)", OracleType("FLOAT", D, precision=126)),
    ("REAL", OracleType("REAL", D)),
    ("double  precision", OracleType("DOUBLE PRECISION", D)),
    ("BINARY_FLOAT", OracleType("BINARY_FLOAT", BF)),
    ("BINARY_DOUBLE", OracleType("BINARY_DOUBLE", BF)),
    # PL/SQL integer subtypes
    ("PLS_INTEGER", OracleType("PLS_INTEGER", PI)),
    ("BINARY_INTEGER", OracleType("BINARY_INTEGER", PI)),
    ("SIMPLE_INTEGER", OracleType("SIMPLE_INTEGER", PI)),
    ("NATURAL", OracleType("NATURAL", PI)),
    ("NATURALN", OracleType("NATURALN", PI)),
    ("POSITIVE", OracleType("POSITIVE", PI)),
    ("POSITIVEN", OracleType("POSITIVEN", PI)),
    ("SIGNTYPE", OracleType("SIGNTYPE", PI)),
    # character strings: length and its BYTE/CHAR semantics
    ("VARCHAR2", OracleType("VARCHAR2", V)),
    ("VARCHAR2(30)", OracleType("VARCHAR2", V, length=30)),
    ("VARCHAR2(30 BYTE)", OracleType("VARCHAR2", V, length=30, semantics="BYTE")),
    ("varchar2( 30  char )", OracleType("VARCHAR2", V, length=30, semantics="CHAR")),
    ("NVARCHAR2(50)", OracleType("NVARCHAR2", V, length=50)),
    ("VARCHAR(10)", OracleType("VARCHAR", V, length=10)),
    ("CHARACTER VARYING(20)", OracleType("CHARACTER VARYING", V, length=20)),
    ("CHAR VARYING(20)", OracleType("CHAR VARYING", V, length=20)),
    ("NCHAR VARYING(20)", OracleType("NCHAR VARYING", V, length=20)),
    ("NATIONAL CHARACTER VARYING(20)", OracleType("NATIONAL CHARACTER VARYING", V, length=20)),
    ("CHAR", OracleType("CHAR", C)),
    ("CHAR(3 BYTE)", OracleType("CHAR", C, length=3, semantics="BYTE")),
    ("NCHAR(2)", OracleType("NCHAR", C, length=2)),
    ("CHARACTER(4 CHAR)", OracleType("CHARACTER", C, length=4, semantics="CHAR")),
    ("NATIONAL CHARACTER(5)", OracleType("NATIONAL CHARACTER", C, length=5)),
    ("NATIONAL CHAR", OracleType("NATIONAL CHAR", C)),
    # dates, timestamps (fractional seconds, time zone kind), intervals (leading, fraction)
    ("DATE", OracleType("DATE", Family.DATE)),
    ("TIMESTAMP", OracleType("TIMESTAMP", Family.TIMESTAMP)),
    ("TIMESTAMP(3)", OracleType("TIMESTAMP", Family.TIMESTAMP, fraction=3)),
    ("TIMESTAMP WITH TIME ZONE", OracleType("TIMESTAMP", Family.TIMESTAMP, zone="TIME ZONE")),
    (
        "TIMESTAMP(9) WITH LOCAL TIME ZONE",
        OracleType("TIMESTAMP", Family.TIMESTAMP, fraction=9, zone="LOCAL TIME ZONE"),
    ),
    ("TIMESTAMP(3)WITH TIME ZONE", OracleType("TIMESTAMP", Family.TIMESTAMP, fraction=3, zone="TIME ZONE")),
    ("INTERVAL YEAR TO MONTH", OracleType("INTERVAL YEAR TO MONTH", Family.INTERVAL)),
    ("INTERVAL YEAR(4) TO MONTH", OracleType("INTERVAL YEAR TO MONTH", Family.INTERVAL, leading=4)),
    ("INTERVAL DAY TO SECOND", OracleType("INTERVAL DAY TO SECOND", Family.INTERVAL)),
    ("INTERVAL DAY(2) TO SECOND(3)", OracleType("INTERVAL DAY TO SECOND", Family.INTERVAL, leading=2, fraction=3)),
    ("INTERVAL DAY(4)TO SECOND", OracleType("INTERVAL DAY TO SECOND", Family.INTERVAL, leading=4)),
    # large objects and bytes
    ("CLOB", OracleType("CLOB", CL)),
    ("NCLOB", OracleType("NCLOB", CL)),
    ("LONG", OracleType("LONG", CL)),
    ("RAW", OracleType("RAW", B)),
    ("RAW(16)", OracleType("RAW", B, length=16)),
    ("LONG RAW", OracleType("LONG RAW", B)),
    ("BLOB", OracleType("BLOB", B)),
    ("BFILE", OracleType("BFILE", B)),
    # the rest
    ("BOOLEAN", OracleType("BOOLEAN", Family.BOOLEAN)),
    ("ROWID", OracleType("ROWID", Family.ROWID)),
    ("UROWID", OracleType("UROWID", Family.ROWID)),
    ("XMLTYPE", OracleType("XMLTYPE", Family.XML)),
    ("sys.xmltype", OracleType("SYS.XMLTYPE", Family.XML)),
    ("SYS_REFCURSOR", OracleType("SYS_REFCURSOR", Family.REF_CURSOR)),
]


@pytest.mark.parametrize("spelling, expected", SPELLINGS, ids=[s for s, _ in SPELLINGS])
def test_parse_reads_every_spelling(spelling, expected):
    assert parse(spelling) == expected
    assert postgres_type(expected)  # every parsed type has a PostgreSQL type


@pytest.mark.parametrize(
    "spelling",
    [
        "address_t",
        "HR.MONEY_T",
        "emp.salary%TYPE",
        "STRING",  # PL/SQL's VARCHAR2 subtype: a VARCHAR name, never mapped by the conversion
        "REAL(5)",  # only FLOAT takes a binary precision
        "BLOB(10)",  # only RAW takes a size
        "INTERVAL",
        "TIMESTAMP WITH ZONE",
        "NUMBER(x)",
    ],
)
def test_parse_refuses_what_is_no_built_in_spelling(spelling):
    assert parse(spelling) is None


@pytest.mark.parametrize(
    "spelling, pg",
    [
        ("NUMBER(4)", "smallint"),
        ("NUMBER(9,0)", "integer"),
        ("NUMBER(18)", "bigint"),
        ("NUMBER(19)", "numeric(19)"),
        ("NUMBER(*,2)", "numeric(38,2)"),
        ("FLOAT(126)", "numeric"),
        ("SIGNTYPE", "smallint"),
        ("NATURAL", "integer"),
        ("VARCHAR2(30 CHAR)", "varchar(30)"),
        ("CHAR", "char(1)"),
        ("TIMESTAMP(9) WITH LOCAL TIME ZONE", "timestamp(6) with time zone"),
        ("INTERVAL DAY(2) TO SECOND(9)", "interval day to second(6)"),
        ("LONG RAW", "bytea"),
        ("DATE", "timestamp(0)"),
    ],
)
def test_postgres_type(spelling, pg):
    t = parse(spelling)
    assert t is not None and postgres_type(t) == pg


def test_families():
    assert {"STRING", "CHARACTER", "VARCHAR2", "NCHAR", "CLOB", "NCLOB", "LONG"} <= TEXT_NAMES
    assert {"DEC", "DOUBLE", "INTEGER", "PLS_INTEGER", "SIGNTYPE", "BINARY_DOUBLE"} <= NUMBER_NAMES
    assert not TEXT_NAMES & NUMBER_NAMES
    assert names(Family.ROWID) == {"ROWID", "UROWID"}
    assert set(NAMES.values()) == set(Family)  # every family has a name
    # every first word parses to a type of its own family (STRING is the one the mapping skips)
    for word, family in NAMES.items():
        t = parse(word)
        if word in ("STRING", "DOUBLE", "INTERVAL"):  # (DOUBLE PRECISION and INTERVAL ... TO ... have more words)
            assert t is None
        else:
            assert t is not None and t.family is family, word


def test_predicates():
    assert first_word("VARCHAR2(30 CHAR)") == "VARCHAR2" and first_word("long raw") == "LONG" and first_word("") == ""
    assert is_clob(" nclob ") and not is_clob("BLOB") and not is_clob(None)
    assert takes_no_scalar("SYS.XMLTYPE") and takes_no_scalar("ANYDATA") and not takes_no_scalar("RAW(16)")
    assert takes_text_only("RAW(16)") and takes_text_only("LONG RAW") and not takes_text_only("BFILE")


# -- no other module defines a family of Oracle type names ---------------------------------------------
MIGRATOR = Path(__file__).resolve().parents[2] / "migrator"
# rule_table.py describes each type rule in prose for the README's construct table.
PROSE = {"oracle_types.py", "rule_table.py"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$#]*")


def _word_lists(tree: ast.AST):
    """(line, words) of every literal collection of strings, dict's keys and string constant."""
    for n in ast.walk(tree):
        if isinstance(n, (ast.Set, ast.List, ast.Tuple)):
            yield n.lineno, [e.value for e in n.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        elif isinstance(n, ast.Dict):
            yield n.lineno, [k.value for k in n.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            # a case-insensitive pattern names its types in any case
            text = n.value.upper() if "(?i)" in n.value else n.value
            yield n.lineno, _WORD.findall(text)


def test_no_other_module_names_a_family_of_oracle_types():
    """Three or more Oracle type names (upper case, as Oracle code spells them; lower case is
    PostgreSQL's) making up at least half of a literal's words is a family: it belongs in
    migrator/oracle_types.py."""
    found = []
    for path in sorted(MIGRATOR.rglob("*.py")):
        if path.name in PROSE:
            continue
        for line, words in _word_lists(ast.parse(path.read_text(encoding="utf-8"))):
            typed = set(words) & NAMES.keys()
            if len(typed) >= 3 and 2 * len(typed) >= len(set(words)):
                found.append(f"{path.relative_to(MIGRATOR.parent)}:{line} {sorted(typed)}")
    assert found == [], "Oracle type families outside migrator/oracle_types.py"
