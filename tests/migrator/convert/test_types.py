"""map_type: a table of Oracle type spellings and their PostgreSQL types."""

from __future__ import annotations

import pytest

from migrator.convert.context import Catalog, ConversionContext, RuleSet
from migrator.convert.datatypes import is_mapped, map_type

CASES = [
    # NUMBER by precision and scale; plain NUMBER stays numeric (never bigint)
    ("NUMBER", "numeric"),
    ("number", "numeric"),
    ("NUMBER(1)", "smallint"),
    ("NUMBER(4)", "smallint"),
    ("NUMBER(5)", "integer"),
    ("NUMBER(9,0)", "integer"),
    ("NUMBER(10)", "bigint"),
    ("NUMBER(18)", "bigint"),
    ("NUMBER(19)", "numeric(19)"),
    ("NUMBER(38)", "numeric(38)"),
    ("NUMBER(12,2)", "numeric(12,2)"),
    ("NUMBER ( 12 , 2 )", "numeric(12,2)"),
    ("NUMBER(5,-2)", "numeric(5,-2)"),
    ("NUMBER(3,5)", "numeric(3,5)"),
    ("NUMBER(*)", "numeric"),
    ("NUMBER(*,0)", "numeric(38,0)"),
    ("NUMBER(*,2)", "numeric(38,2)"),
    ("NUMERIC(10,2)", "numeric(10,2)"),
    ("DECIMAL(8)", "integer"),
    ("INTEGER", "numeric(38)"),
    ("INT", "numeric(38)"),
    ("SMALLINT", "numeric(38)"),
    ("FLOAT", "numeric"),
    ("FLOAT(126)", "numeric"),
    ("REAL", "numeric"),
    ("DOUBLE PRECISION", "numeric"),
    ("BINARY_FLOAT", "real"),
    ("BINARY_DOUBLE", "double precision"),
    # character types
    ("VARCHAR2(30)", "varchar(30)"),
    ("VARCHAR2(30 BYTE)", "varchar(30)"),
    ("VARCHAR2(30 CHAR)", "varchar(30)"),
    ("varchar2( 30  char )", "varchar(30)"),
    ("NVARCHAR2(50)", "varchar(50)"),
    ("VARCHAR(10)", "varchar(10)"),
    ("VARCHAR2", "varchar"),
    ("CHAR", "char(1)"),
    ("CHAR(3)", "char(3)"),
    ("CHAR(3 BYTE)", "char(3)"),
    ("NCHAR(2)", "char(2)"),
    ("CHARACTER VARYING(20)", "varchar(20)"),
    # dates and times
    ("DATE", "timestamp(0)"),
    ("TIMESTAMP", "timestamp"),
    ("TIMESTAMP(3)", "timestamp(3)"),
    ("TIMESTAMP(9)", "timestamp(6)"),
    ("TIMESTAMP WITH TIME ZONE", "timestamp with time zone"),
    ("TIMESTAMP(6) WITH TIME ZONE", "timestamp(6) with time zone"),
    ("TIMESTAMP WITH LOCAL TIME ZONE", "timestamp with time zone"),
    ("INTERVAL YEAR TO MONTH", "interval year to month"),
    ("INTERVAL YEAR(4) TO MONTH", "interval year to month"),
    ("INTERVAL DAY TO SECOND", "interval day to second"),
    ("INTERVAL DAY(2) TO SECOND(3)", "interval day to second(3)"),
    # large objects and binary
    ("CLOB", "text"),
    ("NCLOB", "text"),
    ("LONG", "text"),
    ("BLOB", "bytea"),
    ("RAW(16)", "bytea"),
    ("LONG RAW", "bytea"),
    ("BFILE", "oracompat.bfile"),
    # others
    ("XMLTYPE", "xml"),
    ("SYS.XMLTYPE", "xml"),
    ("ROWID", "text"),
    ("UROWID", "text"),
    ("BOOLEAN", "boolean"),
    ("PLS_INTEGER", "integer"),
    ("BINARY_INTEGER", "integer"),
    ("SYS_REFCURSOR", "refcursor"),
]


@pytest.mark.parametrize("oracle,pg", CASES)
def test_map_type(oracle, pg):
    assert map_type(oracle) == pg
    assert is_mapped(oracle)


@pytest.mark.parametrize("name", ["address_t", "HR.MONEY_T", "emp.salary%TYPE"])
def test_unknown_types_are_returned_lower_cased(name):
    assert map_type(name) == name.lower()
    assert not is_mapped(name)


def test_rule_ids_are_recorded():
    ctx = ConversionContext(catalog=Catalog("hr"))
    map_type("NUMBER(10)", ctx)
    map_type("VARCHAR2(5)", ctx)
    map_type("DATE", ctx)
    map_type("CLOB", ctx)
    assert ctx.applied_rules == [
        "ddl.number_type",
        "ddl.number_precision",
        "ddl.varchar2",
        "ddl.date_type",
        "ddl.lob_types",
    ]


def test_disabled_rule_leaves_oracle_spelling():
    ctx = ConversionContext(catalog=Catalog("hr"), rules=RuleSet(disabled=frozenset({"ddl.date_type"})))
    assert map_type("DATE", ctx) == "DATE"
    assert map_type("NUMBER(3)", ctx) == "numeric(3)"
    assert "ddl.date_type" not in ctx.applied_rules


@pytest.mark.parametrize(
    "oracle,bounded",
    [("NUMBER(1)", "numeric(1)"), ("NUMBER(6)", "numeric(6)"), ("NUMBER(9,0)", "numeric(9)"),
     ("DECIMAL(8)", "numeric(8)"), ("NUMBER(18)", "numeric(18)"), ("NUMBER(19)", "numeric(19)"),
     ("NUMBER(12,2)", "numeric(12,2)"), ("NUMBER", "numeric"), ("INTEGER", "numeric(38)")],
)  # fmt: skip
def test_number_p_keeps_its_precision_unless_the_rule_is_off(oracle, bounded):
    """NUMBER(p) holds at most p digits (Oracle Database SQL Language Reference, "Data Types",
    NUMBER Data Type: "If a value exceeds the precision, then Oracle returns an error"); with
    ddl.number_precision off the narrowest integer type that holds 10^p - 1 comes back."""
    on = ConversionContext(catalog=Catalog("hr"))
    off = ConversionContext(catalog=Catalog("hr"), rules=RuleSet(disabled=frozenset({"ddl.number_precision"})))
    assert map_type(oracle, on) == bounded
    assert map_type(oracle, off) == map_type(oracle)
