"""`rules_applied` is the order in which a unit's conversion first applied each rule: the same in
every run, whatever was converted before it (the fragment memo) and on whichever worker."""

from __future__ import annotations

from pathlib import Path

from migrator.batch.pipeline import MigrateOptions, migrate

# f1 applies expr.nvl before the shared SELECT; in f2 only that SELECT applies it. The memo must
# not let f1's conversion of the SELECT decide what f2 reports.
PAIR = """CREATE OR REPLACE FUNCTION f1_{n} RETURN NUMBER IS v NUMBER; BEGIN
  v := NVL(v, 1);
  SELECT NVL(a, 0) INTO v FROM t WHERE ROWNUM = 1; RETURN v; END;
/
CREATE OR REPLACE FUNCTION f2_{n} RETURN NUMBER IS v NUMBER; BEGIN
  SELECT NVL(a, 0) INTO v FROM t WHERE ROWNUM = 1; RETURN v; END;
/
"""


def _schema(root: Path, pairs: int) -> Path:
    src = root / "app"
    src.mkdir(parents=True)
    (src / "t.sql").write_text("CREATE TABLE t (a NUMBER);\n")
    (src / "f.sql").write_text("".join(PAIR.format(n=n) for n in range(pairs)))
    return src


def _applied(src: Path, out: Path, **opts) -> dict[str, list[str]]:
    report = migrate(src, out, MigrateOptions(progress=False, force=True, **opts))
    return {u.id: u.rules_applied for u in report.units}


def test_a_unit_reports_the_rules_its_own_conversion_applied_in_first_application_order(tmp_path):
    got = _applied(_schema(tmp_path, 1), tmp_path / "out")
    assert got["function:app.f2_0"] == ["ddl.number_type", "sql.rownum", "expr.nvl", "plsql.function"]
    assert got["function:app.f1_0"] == ["ddl.number_type", "expr.nvl", "sql.rownum", "plsql.function"]


def test_two_runs_report_the_same_rules_applied(tmp_path):
    src = _schema(tmp_path, 40)  # 81 units: chunks of 24 go to whichever worker is free
    first = _applied(src, tmp_path / "a", workers=3)
    second = _applied(src, tmp_path / "b", workers=3)
    fresh = _applied(src, tmp_path / "c", workers=1, memo=False)
    assert first == second == fresh
