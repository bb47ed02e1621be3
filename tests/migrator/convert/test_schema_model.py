"""The schema model: the catalog built from a small export holds typed records, one field per fact."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from migrator.convert.context import CatalogEntry
from migrator.convert.dispatch import prepare_context
from migrator.convert.plsql import ast as A
from migrator.convert.schema_model import CollectionType, ObjectType, Package, Sequence, Synonym, Table
from migrator.source.reader import read_schema_dir
from migrator.source.units import UnitKind

SCHEMA = """\
CREATE TABLE emp (
  id NUMBER(10) PRIMARY KEY,
  name VARCHAR2(30 CHAR) NOT NULL,
  hired DATE DEFAULT SYSDATE
);

CREATE SEQUENCE emp_seq START WITH 100 INCREMENT BY 10;

CREATE SYNONYM staff FOR emp;

CREATE OR REPLACE TYPE point_t AS OBJECT (
  x NUMBER,
  y NUMBER(5, 2),
  CONSTRUCTOR FUNCTION point_t(p NUMBER) RETURN SELF AS RESULT,
  MEMBER FUNCTION norm RETURN NUMBER
) NOT FINAL;
/

CREATE OR REPLACE TYPE point3_t UNDER point_t (z NUMBER) NOT INSTANTIABLE;
/

CREATE OR REPLACE TYPE num_list AS TABLE OF NUMBER(6);
/

CREATE OR REPLACE TYPE name_arr AS VARRAY(5) OF VARCHAR2(30);
/

CREATE OR REPLACE TYPE BODY point_t AS
  CONSTRUCTOR FUNCTION point_t(p NUMBER) RETURN SELF AS RESULT IS
  BEGIN
    x := p; y := p;
    RETURN;
  END;
  MEMBER FUNCTION norm RETURN NUMBER IS
  BEGIN
    RETURN x + y;
  END;
END;
/

CREATE OR REPLACE FUNCTION twice(n NUMBER) RETURN NUMBER IS
BEGIN
  RETURN n * 2;
END;
/

CREATE OR REPLACE PACKAGE pay AS
  g_rate NUMBER := 1.5;
  SUBTYPE money_t IS NUMBER(12, 2);
  bad_pay EXCEPTION;
  FUNCTION net(p money_t) RETURN money_t;
END pay;
/

CREATE OR REPLACE PACKAGE BODY pay AS
  g_calls PLS_INTEGER := 0;
  TYPE cache_t IS TABLE OF NUMBER INDEX BY PLS_INTEGER;
  FUNCTION net(p money_t) RETURN money_t IS
  BEGIN
    g_calls := g_calls + 1;
    RETURN p * g_rate;
  END;
  PROCEDURE reset IS
  BEGIN
    g_calls := 0;
  END;
END pay;
/
"""


def _catalog(tmp_path: Path):
    (tmp_path / "schema.sql").write_text(SCHEMA, encoding="utf-8")
    return prepare_context(read_schema_dir(tmp_path, "hr")).catalog


def test_tables_sequences_synonyms(tmp_path):
    cat = _catalog(tmp_path)
    emp = cat.lookup("emp")
    assert emp is not None and emp.kind is UnitKind.TABLE
    # the DDL reader keeps the source's spelling, the PL/SQL reader its normalised one
    assert emp.table == Table(
        column_types={"id": "NUMBER(10)", "name": "VARCHAR2(30 CHAR)", "hired": "DATE"},
        primary_key=("id",),
        plsql_column_types={"id": "NUMBER(10)", "name": "VARCHAR2(30 CHAR)", "hired": "DATE"},
    )
    seq = cat.lookup("emp_seq")
    assert seq is not None and isinstance(seq.sequence, Sequence)
    assert seq.sequence.options["start"] == "100" and seq.sequence.options["increment"] == "10"
    syn = cat.lookup("staff")
    assert syn is not None and syn.synonym == Synonym(target=("emp",), public=False, dblink=False)
    assert cat.lookup("twice").table == Table()  # not a table: neither reader read columns


def test_object_and_collection_types(tmp_path):
    cat = _catalog(tmp_path)
    point = cat.lookup("point_t")
    assert point is not None
    assert point.declared_type == ObjectType({"x": "NUMBER", "y": "NUMBER(5, 2)"}, final=False, methods=("norm",))
    assert point.plsql_type == ObjectType({"x": "NUMBER", "y": "NUMBER(5,2)"})
    assert sorted(point.methods) == ["norm", "point_t"]
    assert [r.flavour for r in point.methods["point_t"]] == ["CONSTRUCTOR"]

    sub = cat.lookup("point3_t")
    assert sub is not None
    assert sub.declared_type == ObjectType({"z": "NUMBER"}, supertype=("point_t",), instantiable=False)

    assert cat.lookup("num_list").declared_type == CollectionType(varray=False, element="NUMBER(6)")
    assert cat.lookup("num_list").plsql_type == CollectionType(varray=False, element="NUMBER(6)")
    assert cat.lookup("name_arr").declared_type == CollectionType(varray=True, element="VARCHAR2(30)", limit=5)
    assert cat.lookup("name_arr").plsql_type == CollectionType(varray=True, element="VARCHAR2(30)", limit=5)


def test_routines_and_their_signatures(tmp_path):
    cat = _catalog(tmp_path)
    twice = cat.lookup("twice")
    assert twice is not None
    assert [r.name for r in twice.routines] == ["twice"] and isinstance(twice.routines[0], A.Routine)
    assert twice.signatures is not None
    [sig] = twice.signatures
    assert sig.kind == "FUNCTION" and [p.pg for p in sig.params] == ["numeric"]


def test_package_public_and_private_members(tmp_path):
    cat = _catalog(tmp_path)
    entry = cat.lookup("pay")
    assert entry is not None and entry.kind is UnitKind.PACKAGE_SPEC
    pkg = entry.package
    assert isinstance(pkg, Package)
    assert list(pkg.variables) == ["g_rate", "g_calls"]
    assert pkg.public_variables == ["g_rate"]  # the spec's; g_calls is the body's own
    assert pkg.spec_order == [("var", "g_rate"), ("type", "money_t")]
    assert pkg.body_order == [("var", "g_calls"), ("type", "cache_t")]
    assert set(pkg.types) == {"money_t", "cache_t"}
    assert list(pkg.routines) == ["net", "reset"] and len(pkg.routines["net"]) == 1  # spec and body: one
    assert list(pkg.exceptions) == ["bad_pay"] and re.fullmatch(r"[0-9A-Z]{5}", pkg.exceptions["bad_pay"])
    assert pkg.signatures is not None and set(pkg.signatures) == {"net", "reset"}


def test_an_entry_has_no_info_dict():
    """The model replaced the free `info` dict: no catalog entry carries one, and no code reads one."""
    fields = {f.name for f in dataclasses.fields(CatalogEntry)}
    assert "info" not in fields and not hasattr(CatalogEntry(UnitKind.TABLE, "s", "x", "x"), "info")
    root = Path(__file__).resolve().parents[3]
    readers = []
    for path in sorted([*(root / "migrator").rglob("*.py"), *(root / "harness").rglob("*.py")]):
        text = path.read_text(encoding="utf-8")
        if re.search(r"\bentry\.info\b|\.info\.get\(|\.info\[", text):
            readers.append(str(path.relative_to(root)))
    assert readers == []
