"""A small catalog (emp/dept) shared by the SQL conversion tests."""

from __future__ import annotations

from migrator.convert.context import Catalog, CatalogEntry, ConversionContext, RuleSet
from migrator.convert.schema_model import Table
from migrator.source.units import UnitKind

EMP = {
    "empno": "NUMBER(6)",
    "ename": "VARCHAR2(30)",
    "job": "VARCHAR2(20)",
    "mgr": "NUMBER(6)",
    "hiredate": "DATE",
    "sal": "NUMBER(8,2)",
    "comm": "NUMBER(8,2)",
    "deptno": "NUMBER(4)",
}
DEPT = {"deptno": "NUMBER(4)", "dname": "VARCHAR2(30)", "loc": "VARCHAR2(30)"}


def make_ctx(disabled: frozenset[str] = frozenset()) -> ConversionContext:
    cat = Catalog("hr")
    cat.add(CatalogEntry(UnitKind.TABLE, "hr", "emp", "hr.emp", table=Table(column_types=dict(EMP))))
    cat.add(CatalogEntry(UnitKind.TABLE, "hr", "dept", "hr.dept", table=Table(column_types=dict(DEPT))))
    return ConversionContext(cat, rules=RuleSet(disabled=disabled))
