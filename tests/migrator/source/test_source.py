"""Reading a schema directory: splitting, kinds and names, encodings, errors, the invariant."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from migrator.source.accounting import accounting_problems
from migrator.source.encoding import CP1252, LATIN1, UTF8, UTF8_BOM, decode_bytes
from migrator.source.reader import SourceError, read_schema_dir
from migrator.source.sqlplus import DIRECTIVE, STATEMENT, split_script
from migrator.source.units import Severity, UnitKind

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def read_one(tmp_path: Path, text: str, name: str = "x.sql", schema: str = "hr"):
    (tmp_path / name).write_text(text, encoding="utf-8")
    source = read_schema_dir(tmp_path, schema)
    assert accounting_problems(source) == []
    return source


def codes(source) -> list[str]:
    return [i.code for i in source.issues]


def test_sql_text_excludes_semicolon_and_plsql_keeps_end(tmp_path):
    src = read_one(
        tmp_path, "CREATE TABLE t (a NUMBER);\n\nCREATE OR REPLACE PROCEDURE p IS\nBEGIN\n  NULL;\nEND p;\n/\n"
    )
    table, proc = src.units
    assert table.text == "CREATE TABLE t (a NUMBER)"
    assert proc.text == "CREATE OR REPLACE PROCEDURE p IS\nBEGIN\n  NULL;\nEND p;"
    assert (proc.span.start_line, proc.span.end_line) == (3, 6)
    assert proc.kind is UnitKind.PROCEDURE and proc.id == "procedure:hr.p"


def test_sql_statement_ended_by_slash_line(tmp_path):
    src = read_one(tmp_path, "CREATE VIEW v AS SELECT 1 x FROM dual -- trailing\n/\n")
    assert src.units[0].text == "CREATE VIEW v AS SELECT 1 x FROM dual -- trailing"


@pytest.mark.parametrize(
    "head, kind, name",
    [
        ("CREATE TABLE hr.emp (a NUMBER)", UnitKind.TABLE, "hr.emp"),
        ("CREATE GLOBAL TEMPORARY TABLE tmp (a NUMBER)", UnitKind.TABLE, "hr.tmp"),
        ("CREATE UNIQUE INDEX emp_ix ON emp (a)", UnitKind.INDEX, "hr.emp_ix"),
        ("CREATE BITMAP INDEX b_ix ON emp (a)", UnitKind.INDEX, "hr.b_ix"),
        ("CREATE SEQUENCE s", UnitKind.SEQUENCE, "hr.s"),
        ("CREATE OR REPLACE FORCE VIEW v AS SELECT 1 FROM dual", UnitKind.VIEW, "hr.v"),
        ("CREATE MATERIALIZED VIEW mv AS SELECT 1 FROM dual", UnitKind.MATERIALIZED_VIEW, "hr.mv"),
        ("CREATE PUBLIC SYNONYM emps FOR hr.emp", UnitKind.SYNONYM, "hr.emps"),
        ('CREATE TABLE "Emp Table" (a NUMBER)', UnitKind.TABLE, "hr.Emp Table"),
        ('CREATE TABLE "SALES"."ORDERS" (a NUMBER)', UnitKind.TABLE, "sales.orders"),
        ("INSERT INTO scott.emp VALUES (1)", UnitKind.DATA, "scott.emp"),
        ("INSERT /*+ APPEND */ INTO emp SELECT * FROM x", UnitKind.DATA, "hr.emp"),
        ("UPDATE emp SET a = 1", UnitKind.DATA, "hr.emp"),
        ("DELETE FROM emp", UnitKind.DATA, "hr.emp"),
        ("MERGE INTO emp e USING x ON (1=1) WHEN MATCHED THEN UPDATE SET a = 1", UnitKind.DATA, "hr.emp"),
        ("GRANT SELECT ON emp TO scott", UnitKind.GRANT, "hr.emp"),
        ("COMMENT ON COLUMN hr.emp.a IS 'x'", UnitKind.COMMENT, "hr.emp"),
        ("COMMENT ON TABLE emp IS 'x'", UnitKind.COMMENT, "hr.emp"),
        ("ALTER TABLE emp ADD CONSTRAINT c CHECK (a > 0)", UnitKind.ALTER, "hr.emp"),
        ("DROP TABLE emp", UnitKind.OTHER, "hr.drop"),
    ],
)
def test_sql_kinds_and_names(tmp_path, head, kind, name):
    src = read_one(tmp_path, head + ";\n")
    (unit,) = src.units
    assert (unit.kind, unit.qualified_name) == (kind, name)
    assert unit.text == head


@pytest.mark.parametrize(
    "head, kind",
    [
        ("CREATE OR REPLACE EDITIONABLE FUNCTION f RETURN NUMBER IS BEGIN RETURN 1; END;", UnitKind.FUNCTION),
        ("CREATE OR REPLACE PACKAGE f AS x NUMBER; END;", UnitKind.PACKAGE_SPEC),
        ("CREATE OR REPLACE PACKAGE BODY f AS END;", UnitKind.PACKAGE_BODY),
        ("CREATE OR REPLACE TYPE f AS OBJECT (a NUMBER);", UnitKind.TYPE),
        ("CREATE OR REPLACE TYPE BODY f AS END;", UnitKind.TYPE_BODY),
        ("CREATE OR REPLACE TRIGGER f BEFORE INSERT ON emp FOR EACH ROW BEGIN NULL; END;", UnitKind.TRIGGER),
        ("DECLARE x NUMBER; BEGIN NULL; END;", UnitKind.ANONYMOUS_BLOCK),
        ("BEGIN NULL; END;", UnitKind.ANONYMOUS_BLOCK),
    ],
)
def test_plsql_kinds(tmp_path, head, kind):
    src = read_one(tmp_path, head + "\n/\n")
    (unit,) = src.units
    assert unit.kind is kind and unit.text == head


def test_targets_and_running_ids(tmp_path):
    text = (
        "CREATE INDEX ix ON hr.emp (a);\nINSERT INTO emp VALUES (1);\nINSERT INTO emp VALUES (2);\n"
        "CREATE TRIGGER trg AFTER UPDATE OF a, b ON emp FOR EACH ROW\nBEGIN NULL; END;\n/\n"
    )
    src = read_one(tmp_path, text)
    assert [u.id for u in src.units] == ["index:hr.ix", "data:hr.emp", "trigger:hr.trg"]
    assert {u.target for u in src.units} == {"hr.emp"}
    (data,) = [u for u in src.units if u.kind is UnitKind.DATA]  # a table's rows are one unit
    assert data.text == "INSERT INTO emp VALUES (1);\nINSERT INTO emp VALUES (2)"
    assert [str(p) for p in data.parts] == ["x.sql:2", "x.sql:3"]
    text = "UPDATE emp SET a = 1;\nUPDATE emp SET a = 2;\nINSERT ALL INTO emp VALUES (1) INTO emp VALUES (2) SELECT 1 FROM dual;\n"
    assert [u.id for u in read_one(tmp_path, text).units] == ["data:hr.emp#1", "data:hr.emp#2", "data:hr.emp#3"]


def test_strings_comments_and_q_quotes_hide_terminators(tmp_path):
    text = (
        "INSERT INTO t VALUES ('a;b''c', q'[x;'y]', q'{;}', q'<;>', q'(;)', q'!;!', \"A;B\") -- c;\n;\n"
        "/* ; */ INSERT INTO t VALUES (2);\n"
    )
    src = read_one(tmp_path, text)
    (unit,) = src.units  # both rows of t
    first, second = unit.text.split("\n;\n")  # the ';' after a line comment is on its own line
    assert first.endswith("-- c;") and second == "INSERT INTO t VALUES (2)"


def test_directives_are_reported_not_code(tmp_path):
    text = (
        "SET ECHO OFF\nSET TRANSACTION READ ONLY;\nPROMPT it's here; no code\nREM don't\n"
        "SPOOL x.log\nWHENEVER SQLERROR EXIT 1\nDEFINE x = 1\n@other.sql\n@@sub/y\nSHOW ERRORS\n"
        "COL a FORMAT a10\nTTITLE 'x'\nSET LINESIZE 200 -\n  PAGESIZE 0\nEXIT\n"
    )
    src = read_one(tmp_path, text)
    assert [u.kind for u in src.units] == [UnitKind.OTHER]  # SET TRANSACTION is SQL
    directives = [i for i in src.issues if i.code == "sqlplus-directive"]
    assert len(directives) == 13
    assert directives[-2].text == "SET LINESIZE 200 -\n  PAGESIZE 0"
    assert all(i.severity in (Severity.INFO, Severity.WARNING) for i in directives)


def test_substitution_variables_warn_and_set_define_off_silences(tmp_path):
    src = read_one(tmp_path, "INSERT INTO t VALUES ('&&owner', &x);\nSET DEFINE OFF\nINSERT INTO t VALUES ('R&D');\n")
    subs = [i for i in src.issues if i.code == "substitution-variable"]
    assert len(subs) == 1 and "&&owner" in subs[0].message and "&x" in subs[0].message
    assert subs[0].unit_id == "data:hr.t" and subs[0].severity is Severity.WARNING


def test_missing_slash_splits_at_next_create(tmp_path):
    text = "CREATE PROCEDURE a IS BEGIN NULL; END;\nCREATE PROCEDURE b IS BEGIN NULL; END;\n/\n"
    src = read_one(tmp_path, text)
    assert [u.id for u in src.units] == ["procedure:hr.a", "procedure:hr.b"]
    assert src.units[0].text == "CREATE PROCEDURE a IS BEGIN NULL; END;"
    assert "missing-terminator" in codes(src)


@pytest.mark.parametrize(
    "text, code",
    [
        ("CREATE PROCEDURE p IS BEGIN NULL; END;\n", "unterminated-block"),
        ("CREATE TABLE t (a NUMBER)\n", "unterminated-statement"),
        ("INSERT INTO t VALUES ('abc);\n", "unterminated-string"),
        ("CREATE TABLE t (a NUMBER); /* never closed\n", "unterminated-comment"),
        ('CREATE TABLE "t (a NUMBER);\n', "unterminated-identifier"),
    ],
)
def test_unterminated_input_is_an_error_that_keeps_text(tmp_path, text, code):
    (tmp_path / "b.sql").write_text("CREATE TABLE ok (a NUMBER);\n")
    src = read_one(tmp_path, text)
    err = next(i for i in src.issues if i.code == code)
    assert err.severity is Severity.ERROR and err.text and err.file == "x.sql"
    assert any(u.name == "ok" for u in src.units)  # the other file is still read


def test_duplicate_definition_kept_with_suffix(tmp_path):
    (tmp_path / "a.sql").write_text("CREATE TABLE t (a NUMBER);\n")
    src = read_one(tmp_path, "\n\nCREATE TABLE T (b NUMBER);\n", name="b.sql")
    assert [u.id for u in src.units] == ["table:hr.t", "table:hr.t#2"]
    dup = next(i for i in src.issues if i.code == "duplicate-name")
    assert "a.sql:1" in dup.message and "b.sql:3" in dup.message and dup.unit_id == "table:hr.t#2"


def test_session_schema_and_default_schema(tmp_path):
    text = "CREATE TABLE a (x NUMBER);\nALTER SESSION SET CURRENT_SCHEMA = sales;\nCREATE TABLE b (x NUMBER);\n"
    (tmp_path / "x.sql").write_text(text)
    src = read_schema_dir(tmp_path)
    assert [u.qualified_name for u in src.units if u.kind is UnitKind.TABLE] == [
        f"{tmp_path.name.lower()}.a",
        "sales.b",
    ]


def test_source_errors(tmp_path):
    with pytest.raises(SourceError, match="does not exist"):
        read_schema_dir(tmp_path / "nope")
    with pytest.raises(SourceError, match="no SQL files"):
        read_schema_dir(tmp_path)
    (tmp_path / "readme.txt").write_text("hello")
    with pytest.raises(SourceError, match="no SQL files"):
        read_schema_dir(tmp_path)
    with pytest.raises(SourceError, match="not a directory"):
        read_schema_dir(tmp_path / "readme.txt")


def test_encodings_detected():
    assert decode_bytes("é".encode()).encoding == UTF8
    bom = decode_bytes(codecs.BOM_UTF8 + "é".encode())
    assert (bom.encoding, bom.text) == (UTF8_BOM, "é")
    legacy = decode_bytes("café € ‘x’".encode("cp1252"))
    assert (legacy.encoding, legacy.text) == (CP1252, "café € ‘x’")
    mixed = decode_bytes(b"a\x81b\x80")
    assert (mixed.encoding, mixed.text) == (LATIN1, "a\x81b€")


def test_splitter_pieces_in_order():
    pieces = split_script("PROMPT x\nSELECT 1 FROM dual;\n")
    assert [p.kind for p in pieces] == [DIRECTIVE, STATEMENT]


def fixture_schema_dirs() -> list[Path]:
    return sorted(p for p in (FIXTURES / "schemas").glob("*") if p.is_dir())


@pytest.mark.parametrize("schema_dir", fixture_schema_dirs(), ids=lambda p: p.name)
def test_fixture_schemas_fully_accounted(schema_dir):
    source = read_schema_dir(schema_dir)
    assert accounting_problems(source) == []
    assert source.units
    errors = [str(i) for i in source.issues if i.severity is Severity.ERROR]
    assert errors == []
    assert len({u.id for u in source.units}) == len(source.units)


def test_a_nul_byte_in_a_block_is_reported_at_its_own_line_and_the_file_is_kept(tmp_path):
    text = (
        "CREATE TABLE t (a NUMBER);\n"
        "CREATE OR REPLACE PROCEDURE p IS\nBEGIN\n  INSERT INTO t VALUES (1\x00);\nEND p;\n/\n"
        "CREATE SEQUENCE s;\n"
    )
    src = read_one(tmp_path, text)
    assert [u.id for u in src.units] == ["table:hr.t", "sequence:hr.s"]
    (nul,) = [i for i in src.issues if i.code == "nul-byte"]
    assert (nul.file, nul.line, nul.unit_id, nul.severity) == ("x.sql", 4, "procedure:hr.p", Severity.ERROR)
    assert nul.message.startswith("procedure hr.p: contains a NUL byte (line 4, column 26)")
    assert codes(src) == ["nul-byte"]


def test_symlink_loops_and_broken_links_are_reported_and_reading_goes_on(tmp_path):
    root = tmp_path / "app"
    (root / "sub").mkdir(parents=True)
    (root / "a_table.sql").write_text("CREATE TABLE t (a NUMBER);\n")
    (root / "loop1.sql").symlink_to("loop2.sql")  # a loop of file links
    (root / "loop2.sql").symlink_to("loop1.sql")
    (root / "sub" / "up").symlink_to("..")  # a directory link back to an ancestor
    (root / "dangling.sql").symlink_to("missing.sql")
    src = read_schema_dir(root)
    assert [u.id for u in src.units] == ["table:app.t"]
    found = {(i.code, i.file): i for i in src.issues}
    assert set(found) == {
        ("symlink-loop", "loop1.sql"),
        ("symlink-loop", "loop2.sql"),
        ("symlink-loop", "sub/up"),
        ("broken-symlink", "dangling.sql"),
    }
    assert all(i.severity is Severity.ERROR and i.line == 1 for i in found.values())
    assert "symbolic link loop" in found["symlink-loop", "loop1.sql"].message
    assert "points back to" in found["symlink-loop", "sub/up"].message
    assert "missing.sql" in found["broken-symlink", "dangling.sql"].message


def test_a_linked_directory_is_read_through_its_link(tmp_path):
    elsewhere = tmp_path / "shared"
    elsewhere.mkdir()
    (elsewhere / "seq.sql").write_text("CREATE SEQUENCE s;\n")
    root = tmp_path / "app"
    root.mkdir()
    (root / "t.sql").write_text("CREATE TABLE t (a NUMBER);\n")
    (root / "shared").symlink_to(elsewhere, target_is_directory=True)
    src = read_schema_dir(root)
    assert [(u.id, u.span.file) for u in src.units] == [("sequence:app.s", "shared/seq.sql"), ("table:app.t", "t.sql")]
    assert src.issues == []


def test_sqlcl_load_is_a_line_command_that_does_not_swallow_the_next_statement(tmp_path):
    """SQLcl's `LOAD table file.csv` has no terminator: the statements after it stay statements,
    and the warning names the file whose rows the export does not hold."""
    (tmp_path / "load.sql").write_text(
        "CREATE TABLE ld_t (a NUMBER PRIMARY KEY);\nLOAD ld_t ld_t.csv\n\nALTER TABLE ld_t MODIFY CONSTRAINT ld_pk RELY;\n",
        encoding="utf-8",
    )
    source = read_schema_dir(tmp_path, "s")
    assert [u.id for u in source.units] == ["table:s.ld_t", "alter:s.ld_t#1"]
    (issue,) = [i for i in source.issues if i.line == 2]
    assert issue.severity is Severity.WARNING and "ld_t.csv" in issue.message and "not in the script" in issue.message
