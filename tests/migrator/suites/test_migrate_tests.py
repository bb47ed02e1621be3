"""`migrate --tests`: a team's own PL/SQL tests converted, run on PostgreSQL and used as evidence.

Both states on real PostgreSQL: the fixture suites pass (units they executed become `correct` at G2,
G3 with an Oracle log), and a deliberately broken conversion makes the right test fail and the unit
`wrong`, naming the test and its assertion."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from migrator.batch import pipeline
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.cli.main import main
from migrator.suites import model
from migrator.suites.session import SuiteOptions

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "suites"
PLAIN = FIXTURES / "plain_calc"
PETE = FIXTURES / "pete_style"


def _run(tmp_path: Path, pg_engine, src: Path, dirs: list[Path], name: str = "out", **suite) -> tuple:
    out = tmp_path / name
    opts = MigrateOptions(
        schema="app",
        deploy=pg_engine.admin_dsn(),
        progress=False,
        workers=1,
        suite=SuiteOptions(dirs=tuple(dirs), **suite),
    )
    report = migrate(src, out, opts)
    return report, json.loads((out / "tests.json").read_text(encoding="utf-8")), out


def _by_name(tests: dict) -> dict:
    return {t["name"]: t for t in tests["tests"]}


def test_plain_script_runs_block_by_block_and_gives_evidence(tmp_path, pg_engine):
    report, tests, out = _run(tmp_path, pg_engine, PLAIN / "lib", [PLAIN / "tests"])
    results = _by_name(tests)
    assert tests["totals"] == {"passed": 9, "failed": 0, "error": 0, "skipped": 0, "total": 9}
    first = results["tests/test_calc.sql:6"]
    assert first["output"] == ["OK add_vat default rate", "OK add_vat 5.5"]
    assert first["units"] == ["function:app.add_vat"]
    # the script runs as SQL*Plus runs it: the next block sees the deposit of the block before
    assert results["tests/test_calc.sql:35"]["output"] == ["OK script state: balance 150 after the deposit"]
    assert results["tests/test_calc.sql:66"]["output"] == ["3 tests, 3 passed, 0 failed"]
    # EXEC lines are tests too, in file order, and share the script's session (package counters)
    assert [n for n in results if "counters" in n] == [
        "tests/test_counters.sql:28",
        "tests/test_counters.sql:29",
        "tests/test_counters.sql:31",
    ]
    assert results["tests/test_counters.sql:29"]["output"] == ["ok 2 - add_vat(200, 10)"]
    assert results["tests/test_counters.sql:31"]["output"] == ["2 tests, 2 passed, 0 failed"]
    units = {u.id: u for u in report.units}
    assert units["function:app.add_vat"].category == "correct"
    assert units["function:app.add_vat"].tier == "G2"
    assert units["function:app.add_vat"].provenance == f"suite:{tests['suite_sha256']}"
    assert "tests/test_calc.sql:6" in units["function:app.add_vat"].tests
    assert units["function:app.unused_fn"].category is None and units["function:app.unused_fn"].tests == []
    # test code is not counted among the library's units
    assert all(not u.id.startswith("anonymous_block") for u in report.units)
    assert {u.id for u in report.test_units} >= {"data:app.accounts"}
    assert report.tests is not None and report.tests.style == "plain"
    junit = ET.fromstring((out / "junit.xml").read_text(encoding="utf-8"))
    assert junit.tag == "testsuites"
    cases = junit.findall(".//testcase")
    assert len(cases) == 9 and cases[0].find("system-out").text.startswith("OK add_vat")


def test_broken_conversion_fails_the_test_that_executes_it(tmp_path, pg_engine, monkeypatch):
    real = pipeline.convert_unit

    def broken(unit, ctx):
        done = real(unit, ctx)
        if unit.id == "function:app.add_vat":  # a wrong constant: 1 + rate/100 becomes 2 + rate/100
            assert "(1 + " in done.output
            done.output = done.output.replace("(1 + ", "(2 + ")
        return done

    monkeypatch.setattr(pipeline, "convert_unit", broken)
    report, tests, _ = _run(tmp_path, pg_engine, PLAIN / "lib", [PLAIN / "tests"])
    results = _by_name(tests)
    first = results["tests/test_calc.sql:6"]
    assert first["outcome"] == "failed"
    assert first["message"].startswith("FAILED add_vat default rate: 220")
    summary = results["tests/test_calc.sql:66"]
    assert summary["outcome"] == "failed" and summary["message"] == "3 tests, 2 passed, 1 failed"
    assert results["tests/test_calc.sql:23"]["outcome"] == "passed"  # deposit does not call add_vat
    assert results["tests/test_counters.sql:28"]["message"] == "not ok 1 - add_vat(50): got 110"
    assert results["tests/test_counters.sql:31"]["output"] == ["2 tests, 0 passed, 2 failed"]
    units = {u.id: u for u in report.units}
    assert units["function:app.add_vat"].category == "wrong"
    assert units["function:app.add_vat"].verdict.startswith("test tests/test_calc.sql:6 failed: FAILED add_vat")
    # deposit's blocks passed, but a later block of the same script failed: a script's blocks see
    # what the blocks before them left, so those passes do not make it correct
    assert units["procedure:app.deposit"].category is None
    assert "a later test of the same script failed" in units["procedure:app.deposit"].notes[-1]


def test_framework_convention_with_hooks_and_spec_defaults(tmp_path, pg_engine):
    report, tests, out = _run(tmp_path, pg_engine, PETE / "lib", [PETE / "framework", PETE / "tests"])
    results = _by_name(tests)
    # every parameterless public procedure but the hook and the XX one, in declaration order
    assert list(results) == [
        "ut_strutil.initials_of_names",
        "ut_strutil.pad_code_widths",
        "ut_strutil.negative_code_raises",
        "ut_strutil.log_sees_fresh_table",
    ]
    assert {t["outcome"] for t in tests["tests"]} == {"passed"}, tests
    assert all(t["style"] == "framework" for t in tests["tests"])
    # the description default, declared in the specification only, reached the test
    assert results["ut_strutil.pad_code_widths"]["output"] == [".. codes are zero padded"]
    # before_each ran in each test's transaction, and was rolled back after it
    assert results["ut_strutil.log_sees_fresh_table"]["outcome"] == "passed"
    units = {u.id: u for u in report.units}
    assert units["package_body:app.strutil"].category == "correct"
    assert set(units["package_body:app.strutil"].tests) == set(results)
    # the review site shows, per unit, the tests that exercised it
    assert main(["review", str(out)]) == 0
    page = next((out / "review" / "units").glob("package_body_app.strutil-*.html")).read_text(encoding="utf-8")
    assert "The team&#39;s tests" in page or "The team's tests" in page
    assert all(name in page for name in results)
    assert ".. codes are zero padded" in page


def test_framework_failures_name_the_assertion(tmp_path, pg_engine, monkeypatch):
    real = pipeline.convert_unit

    def broken(unit, ctx):
        done = real(unit, ctx)
        if unit.id == "package_body:app.strutil":  # pad on the right instead of the left
            assert "LPAD(" in done.output
            done.output = done.output.replace("LPAD(", "RPAD(")
        return done

    monkeypatch.setattr(pipeline, "convert_unit", broken)
    report, tests, _ = _run(tmp_path, pg_engine, PETE / "lib", [PETE / "framework", PETE / "tests"])
    results = _by_name(tests)
    failed = results["ut_strutil.pad_code_widths"]
    assert failed["outcome"] == "failed"
    assert failed["message"].startswith("ORA-20000: Assertion failed: default width\nExpected:00042\nActual:  42000")
    assert results["ut_strutil.initials_of_names"]["outcome"] == "passed"
    units = {u.id: u for u in report.units}
    assert units["package_body:app.strutil"].category == "wrong"
    assert "ut_strutil.pad_code_widths failed" in units["package_body:app.strutil"].verdict


def test_oracle_log_raises_passing_tests_to_g3(tmp_path, pg_engine):
    log = tmp_path / "oracle.log"
    names = [
        "ut_strutil.initials_of_names",
        "ut_strutil.pad_code_widths",
        "ut_strutil.negative_code_raises",
        "ut_strutil.log_sees_fresh_table",
    ]
    log.write_text("".join(f"  {n} ... SUCCESS\n" for n in names) + "ut_other.unknown SUCCESS\n", encoding="utf-8")
    report, _, _ = _run(tmp_path, pg_engine, PETE / "lib", [PETE / "framework", PETE / "tests"], oracle_log=log)
    units = {u.id: u for u in report.units}
    assert units["package_body:app.strutil"].tier == "G3"
    assert report.tests is not None and report.tests.oracle_passed == 4
    # a test missing from the log keeps its units at G2
    log.write_text("".join(f"{n} PASSED\n" for n in names[:3]), encoding="utf-8")
    report, _, _ = _run(tmp_path, pg_engine, PETE / "lib", [PETE / "framework", PETE / "tests"], "out2", oracle_log=log)
    assert {u.id: u for u in report.units}["package_body:app.strutil"].tier == "G2"


def test_forced_style_and_a_test_package_that_did_not_deploy(tmp_path, pg_engine):
    tests_dir = tmp_path / "broken_tests"
    tests_dir.mkdir()
    text = (PETE / "tests" / "ut_strutil.pkg").read_text(encoding="utf-8")
    # a body that PostgreSQL refuses: the tests say why they cannot run, none passes silently
    (tests_dir / "ut_strutil.pkg").write_text(text.replace("strutil.log_msg('setup');", "no_such_proc_x(1);"))
    _, tests, _ = _run(
        tmp_path, pg_engine, PETE / "lib", [PETE / "framework", tests_dir], style=model.TestStyle.FRAMEWORK
    )
    outcomes = {t["outcome"] for t in tests["tests"]}
    assert outcomes == {"error"}, tests
    assert all("no_such_proc_x" in t["message"] or "before_each" in t["message"] for t in tests["tests"])


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--no-deploy"], "drop --no-deploy"),
        (["--test-pattern", "OK|FAIL"], "named group"),
        (["--test-pattern", "(?P<fail>"], "not a regular expression"),
    ],
)
def test_usage_errors(tmp_path, capsys, extra, message):
    code = main(["migrate", str(PLAIN / "lib"), "--out", str(tmp_path / "o"), "--tests", str(PLAIN / "tests"), *extra])
    assert code == 2
    assert message in capsys.readouterr().err


def test_test_flags_need_tests(tmp_path, capsys):
    assert (
        main(["migrate", str(PLAIN / "lib"), "--out", str(tmp_path / "o"), "--no-deploy", "--test-style", "plain"]) == 2
    )
    assert "needs --tests" in capsys.readouterr().err
