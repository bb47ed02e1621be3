"""The deliberately messy directory: every kind of bad input is reported, and reading goes on."""

from __future__ import annotations

from pathlib import Path

import pytest

from migrator.source.accounting import accounting_problems
from migrator.source.dependencies import analyze_dependencies
from migrator.source.reader import read_schema_dir
from migrator.source.units import Severity

MESSY = Path(__file__).resolve().parents[3] / "fixtures" / "messy"


@pytest.fixture(scope="module")
def messy():
    source = read_schema_dir(MESSY)
    analyze_dependencies(source)
    return source


def issues(source, code: str, file: str | None = None):
    return [i for i in source.issues if i.code == code and (file is None or i.file == file)]


def test_everything_accounted_for(messy):
    assert accounting_problems(messy) == []


def test_good_units_are_kept(messy):
    ids = {u.id for u in messy.units}
    assert {
        "table:messy.customers",
        "table:messy.orders",
        "sequence:messy.customers_seq",
        "function:messy.price_label",
        "package_spec:messy.orders_pkg",
        "view:messy.v_customer_orders",
        "data:messy.customers",
    } <= ids


def test_encodings_reported_per_file(messy):
    encodings = {f.path: f.encoding for f in messy.files}
    assert encodings["01_setup.sql"] == "utf-8-sig"
    assert encodings["02_legacy_cp1252.sql"] == "cp1252"
    assert encodings["03_orders_pkg.pks"] == "utf-8"
    assert {i.file for i in issues(messy, "encoding")} >= {"01_setup.sql", "02_legacy_cp1252.sql"}
    func = messy.by_id()["function:messy.price_label"]
    assert "€ ‘net’" in func.text and "affiché" in func.text and func.encoding == "cp1252"
    first = messy.units[0]
    assert first.text.startswith("CREATE TABLE customers") and first.span.start_line == 12


def test_sqlplus_directives_never_code(messy):
    directives = issues(messy, "sqlplus-directive", "01_setup.sql")
    commands = [d.text.split()[0].upper() for d in directives]
    for expected in ("REM", "SET", "WHENEVER", "SPOOL", "DEFINE", "PROMPT", "COLUMN", "@@02_LEGACY_CP1252.SQL", "SHOW"):
        assert expected in commands
    missing_script = next(d for d in directives if d.text == "@missing_script.sql")
    assert missing_script.severity is Severity.WARNING
    assert all(not u.text.lstrip().upper().startswith(("SET ", "PROMPT", "REM")) for u in messy.units)
    sub = issues(messy, "substitution-variable")
    assert len(sub) == 1 and "&tbs" in sub[0].message and "USERS" in sub[0].message  # DEFINE value quoted
    # SET DEFINE OFF in the cp1252 file: 'R&D' there is no substitution variable
    assert not issues(messy, "substitution-variable", "02_legacy_cp1252.sql")


def test_wrapped_body_is_an_error_covering_the_block(messy):
    (wrapped,) = issues(messy, "wrapped-source")
    assert wrapped.severity is Severity.ERROR
    assert "cannot convert wrapped source" in wrapped.message and "orders_pkg" in wrapped.message
    assert wrapped.text.startswith("CREATE OR REPLACE PACKAGE BODY orders_pkg wrapped")
    assert wrapped.text.rstrip().endswith("=")
    assert not any(u.id.startswith("package_body:") for u in messy.units)


def test_unterminated_block_at_eof(messy):
    (err,) = issues(messy, "unterminated-block")
    assert (err.file, err.line, err.severity) == ("06_unterminated.prc", 1, Severity.ERROR)
    assert err.text.endswith("END touch_customer;")


def test_duplicates_across_files(messy):
    (dup,) = issues(messy, "duplicate-name")
    assert dup.unit_id == "function:messy.customer_city#2"
    assert "04_dupes_a.sql:1" in dup.message and "05_dupes_b.sql:2" in dup.message
    assert "function:messy.customer_city" in messy.by_id()


def test_files_that_are_not_sql(messy):
    not_sql = {i.file: i for i in issues(messy, "not-sql")}
    assert set(not_sql) == {"blob.sql", "readme.sql"}
    assert all(i.severity is Severity.ERROR for i in not_sql.values())
    (skipped,) = issues(messy, "skipped-file")
    assert skipped.file == "notes.txt"


def test_a_nul_byte_rejects_only_the_statement_that_holds_it(messy):
    (nul,) = issues(messy, "nul-byte")
    assert (nul.file, nul.line, nul.severity) == ("07_nul_byte.sql", 5, Severity.ERROR)
    assert "data messy.regions" in nul.message and "column 35" in nul.message
    assert nul.unit_id == "data:messy.regions"  # the table whose row it is
    assert nul.text == "INSERT INTO regions VALUES (2, 'So\x00uth')"
    kept = {u.id for u in messy.units if u.span.file == "07_nul_byte.sql"}
    assert kept == {"table:messy.regions", "data:messy.regions", "function:messy.region_name"}
    (data,) = [u for u in messy.units if u.id == "data:messy.regions"]
    assert [p.start_line for p in data.parts] == [4, 6]  # the rows before and after the rejected one
    assert not issues(messy, "not-sql", "07_nul_byte.sql")
    assert all("\x00" not in u.text for u in messy.units)
