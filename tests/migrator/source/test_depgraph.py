"""Dependency graph: references, parents, deployment order, cycles and missing objects."""

from __future__ import annotations

from pathlib import Path

import pytest

from migrator.source.dependencies import analyze_dependencies
from migrator.source.reader import read_schema_dir
from migrator.source.units import UnitKind

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"

SCHEMA = """\
CREATE OR REPLACE TRIGGER emp_bi BEFORE INSERT ON emp FOR EACH ROW
BEGIN
  :NEW.id := emp_seq.NEXTVAL;
END;
/
CREATE OR REPLACE PACKAGE BODY emp_pkg AS
  FUNCTION total RETURN NUMBER IS v NUMBER; BEGIN
    SELECT SUM(sal) INTO v FROM emp; -- dept is only in this comment
    DBMS_OUTPUT.PUT_LINE('dept ' || NVL(v, 0));
    RETURN v;
  END;
END emp_pkg;
/
CREATE OR REPLACE VIEW emp_v AS SELECT e.id, bonus(e.sal) b FROM emp e, dept d WHERE e.dept_id = d.id (+);
CREATE OR REPLACE FUNCTION bonus(p NUMBER) RETURN NUMBER IS BEGIN RETURN emp_pkg.total * p; END;
/
INSERT INTO emp (id, sal) VALUES (1, 10);
CREATE OR REPLACE PACKAGE emp_pkg AS FUNCTION total RETURN NUMBER; END;
/
CREATE TABLE emp (id NUMBER, sal NUMBER, dept_id NUMBER REFERENCES dept (id));
CREATE TABLE dept (id NUMBER);
CREATE SEQUENCE emp_seq;
CREATE INDEX emp_ix ON emp (sal);
COMMENT ON TABLE emp IS 'employees';
GRANT SELECT ON emp_v TO scott;
"""


@pytest.fixture
def analyzed(tmp_path):
    (tmp_path / "all.sql").write_text(SCHEMA)
    source = read_schema_dir(tmp_path, "hr")
    return source, analyze_dependencies(source)


def position(graph, unit_id):
    return graph.order.index(unit_id)


def test_order_respects_dependencies(analyzed):
    source, graph = analyzed
    assert sorted(graph.order) == sorted(u.id for u in source.units)
    before = [
        ("table:hr.dept", "table:hr.emp"),  # REFERENCES
        ("table:hr.emp", "data:hr.emp"),
        ("sequence:hr.emp_seq", "trigger:hr.emp_bi"),
        ("table:hr.emp", "trigger:hr.emp_bi"),
        ("package_spec:hr.emp_pkg", "package_body:hr.emp_pkg"),
        ("package_spec:hr.emp_pkg", "function:hr.bonus"),
        ("function:hr.bonus", "view:hr.emp_v"),  # a view calling a function waits for it
        ("table:hr.emp", "index:hr.emp_ix"),
        ("view:hr.emp_v", "grant:hr.emp_v#1"),
    ]
    for a, b in before:
        assert position(graph, a) < position(graph, b), (a, b)
    assert graph.order[0] == "sequence:hr.emp_seq"  # kind priority breaks ties


def test_references_and_parents(analyzed):
    source, _ = analyzed
    units = source.by_id()
    body = units["package_body:hr.emp_pkg"]
    assert body.parent_id == "package_spec:hr.emp_pkg"
    assert "hr.dept" not in body.references  # only in a comment and a string
    assert "hr.emp" in body.references
    assert units["function:hr.bonus"].references == {"hr.emp_pkg"}
    assert units["trigger:hr.emp_bi"].references == {"hr.emp", "hr.emp_seq"}
    assert units["comment:hr.emp#1"].references == {"hr.emp"}


def test_builtins_aliases_and_outer_joins_are_not_missing(analyzed):
    source, graph = analyzed
    assert graph.missing == {}
    assert graph.cycles == []
    assert not [i for i in source.issues if i.code in ("missing-reference", "dependency-cycle")]


def test_missing_references_are_conservative(tmp_path):
    (tmp_path / "a.sql").write_text(
        "CREATE TABLE t (a NUMBER);\n"
        "CREATE OR REPLACE PROCEDURE p IS\n  v NUMBER;\n  PROCEDURE local_helper IS BEGIN NULL; END;\n"
        "BEGIN\n  SELECT COUNT(*) INTO v FROM other.things x, t WHERE x.a = t.a;\n"
        "  undefined_proc(v);\n  ext_pkg.run(v);\n  local_helper;\n  v := t_seq.NEXTVAL;\n"
        "  v := EXTRACT(YEAR FROM x.d) + TO_NUMBER('1') + SYS_CONTEXT('a', 'b');\nEND;\n/\n"
        "INSERT INTO ghost VALUES (1);\n"
    )
    source = read_schema_dir(tmp_path, "hr")
    graph = analyze_dependencies(source)
    assert graph.missing == {
        "procedure:hr.p": ["ext_pkg.run", "other.things", "t_seq", "undefined_proc"],
        "data:hr.ghost": ["hr.ghost"],
    }
    assert sum(i.code == "missing-reference" for i in source.issues) == 2


def test_utility_library_refers_to_nothing_undefined():
    """PIPE ROW (...), Oracle-supplied packages (DBMS_LOB, UTL_FILE, SYS.UTL_FILE ...), types of
    other packages and schema-level types are no missing objects."""
    source = read_schema_dir(FIXTURES / "schemas" / "utilities")
    graph = analyze_dependencies(source)
    assert graph.missing == {}
    assert graph.cycles == []


def test_cycles_reported_and_broken_deterministically(tmp_path):
    (tmp_path / "v.sql").write_text(
        "CREATE VIEW a AS SELECT * FROM b;\nCREATE VIEW b AS SELECT * FROM a;\nCREATE TABLE c (x NUMBER);\n"
    )
    source = read_schema_dir(tmp_path, "hr")
    graph = analyze_dependencies(source)
    assert graph.cycles == [["view:hr.a", "view:hr.b"]]
    assert graph.order == ["table:hr.c", "view:hr.a", "view:hr.b"]
    analyze_dependencies(source)  # again: issues are replaced, not duplicated
    assert sum(i.code == "dependency-cycle" for i in source.issues) == 1


@pytest.mark.parametrize(
    "schema_dir", sorted(p for p in (FIXTURES / "schemas").glob("*") if p.is_dir()), ids=lambda p: p.name
)
def test_fixture_schemas_order(schema_dir):
    source = read_schema_dir(schema_dir)
    graph = analyze_dependencies(source)
    index = {uid: i for i, uid in enumerate(graph.order)}
    assert sorted(index) == sorted(u.id for u in source.units)
    for unit in source.units:
        if unit.parent_id:
            assert index[unit.parent_id] < index[unit.id]
        if unit.kind in (UnitKind.DATA, UnitKind.TRIGGER, UnitKind.INDEX) and unit.target:
            table = f"table:{unit.target}"
            if table in index:
                assert index[table] < index[unit.id]


def test_blocks_of_a_script_keep_their_order_around_a_trigger_disabled_elsewhere(tmp_path):
    """hr-style install: a load script's blocks (employees, then their job history) and, in the
    code script, a trigger on employees created and disabled. The disable goes before the block
    that writes employees, and the job-history block, which needs those rows, still after it."""
    (tmp_path / "a_create.sql").write_text(
        "CREATE TABLE o_emp (id NUMBER PRIMARY KEY);\nCREATE TABLE o_hist (emp_id NUMBER REFERENCES o_emp (id));\n",
        encoding="utf-8",
    )
    (tmp_path / "b_load.sql").write_text(
        "BEGIN\n  INSERT INTO o_emp VALUES (1);\nEND;\n/\nBEGIN\n  INSERT INTO o_hist VALUES (1);\nEND;\n/\n",
        encoding="utf-8",
    )
    (tmp_path / "c_code.sql").write_text(
        "CREATE TRIGGER o_emp_bi BEFORE INSERT ON o_emp FOR EACH ROW\nBEGIN\n  NULL;\nEND;\n/\n"
        "ALTER TRIGGER o_emp_bi DISABLE;\n",
        encoding="utf-8",
    )
    order = analyze_dependencies(read_schema_dir(tmp_path, "s")).order
    assert order.index("trigger:s.o_emp_bi") < order.index("other:s.alter_trigger#1")
    assert order.index("other:s.alter_trigger#1") < order.index("anonymous_block:s.block#1")
    assert order.index("anonymous_block:s.block#1") < order.index("anonymous_block:s.block#2")
