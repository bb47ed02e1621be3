"""Oracle names as the reader, the lexer, the DDL helpers and the PL/SQL parser see them: folding,
and a doubled quote inside a quoted identifier read as part of the one name (never as its end)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from migrator.convert.ddl.tokens import ident, read_name
from migrator.convert.plsql.parse_unit import parse_unit
from migrator.source import statement_kind as classify
from migrator.source.accounting import accounting_problems
from migrator.source.identifiers import fold, oracle_text
from migrator.source.lexer import QIDENT, LexError, code_tokens, normalize_identifier, tokenize
from migrator.source.reader import read_schema_dir
from migrator.source.units import UnitKind

WEIRD = '"we;ird""pkg"'  # the name we;ird"pkg, written as PostgreSQL (and we) escape a quote


@pytest.mark.parametrize(
    "written, plain",
    [
        ("emp", "emp"),
        ("EMP", "emp"),
        ("Emp#", "emp#"),
        ('"EMP"', "emp"),
        ('"EMP#"', "emp#"),
        ('"CAFÉ"', "café"),
        ('"emp"', "emp"),
        ('"Emp"', "Emp"),
        ('"Order Lines"', "Order Lines"),
        ('"X; DROP"', "X; DROP"),  # all upper case, but not a name Oracle could read unquoted
        ('"1ST"', "1ST"),
        ('"SELECT"', "select"),
        (WEIRD, 'we;ird"pkg'),
    ],
)
def test_fold_follows_oracle_name_semantics(written, plain):
    assert fold(written) == plain


@given(st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), min_size=1, max_size=30))
def test_oracle_text_reads_back_as_the_same_name(text):
    plain = fold('"' + text.replace('"', '""') + '"')
    assert fold(oracle_text(plain)) == plain


def test_the_reader_lexer_reads_a_doubled_quote_inside_the_name():
    text = f"CREATE PACKAGE {WEIRD} AS x NUMBER; END;"
    tokens = [t for t in code_tokens(text) if t.kind == QIDENT]
    assert [t.text for t in tokens] == [WEIRD]
    assert normalize_identifier(WEIRD) == 'we;ird"pkg'


def test_an_unterminated_name_still_runs_to_the_end_for_the_reader():
    text = 'CREATE TABLE "a""b'
    assert [t.kind for t in code_tokens(text)][-1] == "unterminated"


def test_ddl_helpers_read_a_doubled_quote_inside_the_name():
    toks = tokenize(f'CREATE TABLE {WEIRD} ("a""" NUMBER)')
    assert [t.text for t in toks if t.kind == "qident"] == [WEIRD, '"a"""']
    name, _ = read_name(toks, 2)
    assert name == ('we;ird"pkg',) and name.sql == WEIRD
    assert ident(toks[4]) == 'a"'
    with pytest.raises(LexError):
        tokenize('CREATE TABLE "a""b (x NUMBER)')


def test_plsql_code_reads_a_doubled_quote_inside_the_name():
    toks = tokenize(f'v := {WEIRD}.f("a""b");')
    assert [t.text for t in toks if t.kind == "qident"] == [WEIRD, '"a""b"']


def test_plsql_unit_named_with_a_doubled_quote_parses_whole():
    unit = parse_unit(
        f"CREATE OR REPLACE PACKAGE BODY {WEIRD} AS\n  FUNCTION f RETURN NUMBER IS BEGIN RETURN 1; END;\nEND {WEIRD};"
    )
    assert unit.tree.name == 'we;ird"pkg'


def test_reader_names_the_unit_with_the_whole_quoted_name(tmp_path):
    (tmp_path / "p.sql").write_text(
        f"CREATE OR REPLACE PACKAGE {WEIRD} AS\n  FUNCTION f RETURN NUMBER;\nEND {WEIRD};\n/\n"
        'CREATE TABLE "Order Lines" ("Qty" NUMBER);\n',
        encoding="utf-8",
    )
    source = read_schema_dir(tmp_path, "hr")
    assert accounting_problems(source) == []
    assert [(u.kind, u.name) for u in source.units] == [
        (UnitKind.PACKAGE_SPEC, 'we;ird"pkg'),
        (UnitKind.TABLE, "Order Lines"),
    ]
    assert source.issues == []


def test_classify_head_reads_qualified_quoted_names():
    text = f'CREATE OR REPLACE TRIGGER "HR".{WEIRD} BEFORE INSERT ON "Order Lines" FOR EACH ROW BEGIN NULL; END;'
    head = classify.read_head(text, 0)
    assert (head.schema, head.name, head.target) == ("hr", 'we;ird"pkg', (None, "Order Lines"))


def test_unquoted_names_in_any_script_are_one_word():
    # Oracle allows letters of the database character set unquoted; CAFÉ and "CAFÉ" are café
    assert [t.text for t in tokenize("CREATE TABLE CAFÉ (prix# NUMBER)")][2:5] == ["CAFÉ", "(", "prix#"]
    assert [t.text for t in tokenize("v := CAFÉ.prix#;")][2:5] == ["CAFÉ", ".", "prix#"]
    text = "CREATE TABLE CAFÉ (prix# NUMBER)"
    assert classify.read_head(text, 0).name == "café" == fold('"CAFÉ"')
