"""`migrator assess`: before migrating, the same reader and rules say what `migrate` will report."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from migrator.assess.assessment import AssessOptions, assess
from migrator.assess.calibration import default_corpus, measure
from migrator.assess.model import Assessment
from migrator.assess.packages import HANDLED, find_calls
from migrator.assess.scan import convert_schema
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.cli.main import main
from migrator.convert import supplied
from tests.migrator.review.site_links import broken_links

ROOT = Path(__file__).resolve().parents[3]
SCHEMAS = ROOT / "fixtures" / "schemas"
UTL = """CREATE OR REPLACE PROCEDURE write_log (p_msg IN VARCHAR2) IS
  f UTL_TCP.CONNECTION;
BEGIN
  -- UTL_SMTP.SEND in a comment is no call, nor is 'DBMS_PIPE.PACK_MESSAGE' in a string
  f := UTL_TCP.OPEN_CONNECTION('loghost', 514);
  UTL_TCP.FLUSH(f);
  SYS.UTL_TCP.CLOSE_CONNECTION(f);
  DBMS_OUTPUT.PUT_LINE('logged ' || p_msg);
END write_log;
/
CREATE OR REPLACE FUNCTION elapsed RETURN NUMBER IS
BEGIN
  RETURN DBMS_UTILITY.GET_TIME;
END elapsed;
/
"""


@pytest.fixture
def utl(tmp_path) -> Path:
    src = tmp_path / "ops"
    src.mkdir()
    (src / "ops.prc").write_text(UTL)
    return src


def _migrated(src: Path, out: Path, disabled: frozenset[str]) -> dict:
    report = migrate(src, out, MigrateOptions(force=True, disabled_rules=disabled, progress=False))
    return {u.id: u for u in report.units}


CASES = [
    ("hr_payroll", ()),
    ("inventory", ()),
    ("banking", ()),
    ("hr_payroll", ("ddl.view",)),
    ("banking", ("plsql.trigger", "plsql.dbms_output")),
    ("inventory", ("plsql.*",)),
]


@pytest.mark.parametrize(("schema", "disabled"), CASES)
def test_will_not_convert_is_what_migrate_reports(schema, disabled, tmp_path):
    src = SCHEMAS / schema
    a = assess(src, AssessOptions(disabled_rules=frozenset(disabled), calibrate=False))
    reported = _migrated(src, tmp_path / "out", frozenset(disabled))
    assert [u.id for u in a.units] == list(reported)  # same units, same (deployment) order
    for u in a.units:
        r = reported[u.id]
        assert [(x.construct_name, x.message, x.unit_line) for x in u.will_not_convert] == [
            (x.construct_name, x.message, x.line) for x in r.unconverted
        ]
        assert u.rules == r.rules_applied and (u.conversion_error is None) == (r.error is None)
    if disabled:  # not vacuous: switching rules off leaves something for a person
        assert any(u.will_not_convert for u in a.units)


def test_supplied_packages_and_messy_input_match_migrate(utl, tmp_path):
    for src in (utl, ROOT / "fixtures" / "messy"):
        a = assess(src, AssessOptions(calibrate=False))
        reported = _migrated(src, tmp_path / f"out-{src.name}", frozenset())
        assert {(u.id, x.construct_name, x.unit_line) for u in a.units for x in u.will_not_convert} == {
            (uid, x.construct_name, x.line) for uid, r in reported.items() for x in r.unconverted
        }
    a = assess(utl, AssessOptions(calibrate=False))
    proc = next(u for u in a.units if u.id == "procedure:ops.write_log")
    # a package without a PostgreSQL equivalent: reported once, every call site listed (SYS.
    # included); DBMS_UTILITY.GET_TIME has a faithful translation
    assert [(x.construct_name, x.file_line) for x in proc.will_not_convert] == [
        ("needs an Oracle-supplied package with no PostgreSQL equivalent: UTL_TCP", 2)
    ]
    status = {(p.package, p.member): p.status for p in proc.packages}
    assert status == {
        ("UTL_TCP", "CONNECTION"): "not converted",
        ("UTL_TCP", "OPEN_CONNECTION"): "not converted",
        ("UTL_TCP", "FLUSH"): "not converted",
        ("UTL_TCP", "CLOSE_CONNECTION"): "not converted",
        ("DBMS_OUTPUT", "PUT_LINE"): "handled",
    }
    assert proc.complexity == "complex"
    assert {p.package: p.status for p in a.packages} == {
        "DBMS_OUTPUT": "handled",
        "DBMS_UTILITY": "handled",
        "UTL_TCP": "not converted",
    }
    assert [i.what for i in a.effort.one_time if "package" in i.what] == [
        "replace Oracle package UTL_TCP (1 units)",
    ]


def test_package_calls_are_found_by_tokens_not_text():
    calls = find_calls(UTL)
    assert [(c.package, c.member, c.line) for c in calls] == [
        ("UTL_TCP", "CONNECTION", 2),
        ("UTL_TCP", "OPEN_CONNECTION", 5),
        ("UTL_TCP", "FLUSH", 6),
        ("UTL_TCP", "CLOSE_CONNECTION", 7),
        ("DBMS_OUTPUT", "PUT_LINE", 8),
        ("DBMS_UTILITY", "GET_TIME", 13),
    ]
    assert find_calls("SELECT t.dbms_flag FROM t") == []  # a column named like a package


CALLABLE = sorted(
    [(m.package, m.name) for m in supplied.MEMBERS] + [("DBMS_OUTPUT", n) for n in supplied.DBMS_OUTPUT_MEMBERS]
)


def test_the_handled_table_is_the_converters():
    assert set(CALLABLE) <= set(HANDLED)
    assert {k for k in HANDLED if k not in CALLABLE} == (
        set(supplied.CONSTANTS) | set(supplied.TYPES) | set(supplied.EXCEPTIONS)
    )


@pytest.mark.parametrize(("package", "member"), CALLABLE)
def test_handled_members_really_are_translated(package, member, tmp_path):
    src = tmp_path / "app"
    src.mkdir()
    m = supplied.BY_NAME.get((package, member))
    args = f"({m.example})" if m is not None and m.example else ("('x')" if member.startswith("PUT") else "")
    call = f"{package}.{member}{args}"
    stmt = f"{call};" if m is None or m.kind == "PROCEDURE" else f"IF {call} IS NULL THEN NULL; END IF;"
    variables = (
        "v_clob CLOB; v_blob BLOB; v_n NUMBER; v_s VARCHAR2(4000); v_raw RAW(100); v_c INTEGER;"
        " v_tab DBMS_UTILITY.UNCL_ARRAY;"
    )
    body = f"CREATE OR REPLACE PROCEDURE p IS\n  {variables}\nBEGIN\n  {stmt}\nEND p;\n/\n"
    (src / "p.prc").write_text(body)
    _, converted = convert_schema(src)
    conversion = converted[0].conversion
    assert conversion.error is None and conversion.unconverted == []
    code = re.sub(r"--[^\n]*", "", conversion.output)  # a note in a comment is no call
    code = code.split("INSERT INTO oracompat.oracle_source")[0]  # nor the Oracle source kept as data
    assert f"{package}.{member}".lower() not in code.lower()


def test_counts_effort_and_model_add_up():
    a = assess(SCHEMAS / "hr_payroll", AssessOptions(scenarios=ROOT / "fixtures" / "scenarios" / "hr_payroll.yaml"))
    assert sum(k.units for k in a.by_kind) == a.units_total == 52  # the data: one unit per table (5), not per row (24)
    assert sum(k.lines for k in a.by_kind) == a.lines_total
    total = sum(u.minutes for u in a.units) + sum(i.minutes for i in a.effort.one_time)
    assert a.effort.total_minutes == pytest.approx(total, abs=0.2)
    for u in a.units:
        assert u.minutes == pytest.approx(sum(i.minutes for i in u.cost), abs=0.1)
    judged = {u.id for u in a.units if u.scenario}
    assert "function:hr_payroll.full_name" in judged and "table:hr_payroll.employees" not in judged
    full_name = next(u for u in a.units if u.id == "function:hr_payroll.full_name")
    assert not any("scenario" in i.what for i in full_name.cost)  # evidence exists already
    assert a.model.rule_risks and all(0 < r.risk < 1 for r in a.model.rule_risks)


def test_rule_risk_is_measured_against_the_baselines(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(SCHEMAS / "hr_payroll", corpus / "schemas" / "hr_payroll")
    (corpus / "baselines").mkdir()
    baseline = json.loads((ROOT / "fixtures" / "baselines" / "hr_payroll.json").read_text())
    judged = {u: c for u, c in baseline["categories"].items() if c in ("correct", "wrong", "rejected")}
    baseline["categories"] = dict.fromkeys(baseline["categories"], "unverified") | dict.fromkeys(judged, "correct")
    baseline["categories"]["function:hr_payroll.full_name"] = "wrong"
    (corpus / "baselines" / "hr_payroll.json").write_text(json.dumps(baseline))
    calibration = measure(corpus)
    _, converted = convert_schema(SCHEMAS / "hr_payroll")
    rules = next(c.conversion.applied_rules for c in converted if c.unit.id == "function:hr_payroll.full_name")
    substr = calibration.rules["expr.substr"]
    assert "expr.substr" in rules and substr.bad == 1 and substr.risk == (1 + 1) / (substr.judged + 2)
    assert calibration.risk("ddl.index") == 0.5  # indexes are never judged by a scenario
    assert measure(default_corpus()).rules  # the repository's corpus calibrates


def test_cli_prints_counts_and_an_effort_table_and_writes_three_files(tmp_path, capsys):
    for schema in ("hr_payroll", "inventory", "banking"):
        out = tmp_path / schema
        assert main(["assess", str(SCHEMAS / schema), "--out", str(out)]) == 0
        printed = capsys.readouterr().out
        assert printed.startswith(f"{schema}: ") and "| kind | units | lines | effort |" in printed
        assert "| **total** |" in printed and "estimated effort:" in printed and "will not convert:" in printed
        a = Assessment.model_validate_json((out / "assessment.json").read_text())
        assert f"**{a.units_total}**" in (out / "assessment.md").read_text()
        assert broken_links(out / "assessment.html") == []


def test_cli_refuses_bad_input_without_a_traceback(tmp_path, capsys):
    assert main(["assess", str(tmp_path / "missing")]) == 2
    assert main(["assess", str(SCHEMAS / "hr_payroll"), "--disable-rule", "expr.nvll"]) == 2
    assert main(["assess", str(SCHEMAS / "hr_payroll"), "--out", str(SCHEMAS / "hr_payroll" / "x")]) == 2
    (tmp_path / "bad.yaml").write_text("schema: [")
    assert main(["assess", str(SCHEMAS / "hr_payroll"), "--scenarios", str(tmp_path / "bad.yaml")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("migrator: error:") == 4 and "did you mean expr.nvl" in err
