"""The plain style on suites written the ways teams write them, each run by `migrate --tests` on
real PostgreSQL in both states: the conversion as it is (every test passes, the suite's own summary
line counts every case passed) and a deliberately broken conversion of one library unit (exactly
the tests that execute it fail, and the summary line counts the failures).

- `plain_scripts`: a SQL*Plus master script (`@@setup.sql`, `@@test_*.sql`, `@@teardown.sql`),
  blocks printing `PASS: …` / `FAIL: …` and logging into a results table that a last block counts
  (`Passed: P / N`), setup rows, a teardown that deletes and drops.
- `plain_assert_pkg`: a test package with an `assert_equals(expected, actual, msg)` helper and a
  `run_all` that prints `OK (N tests)` or `FAILURES!!! Tests run: N, Failures: F`.
- `plain_raise`: test procedures that raise (RAISE_APPLICATION_ERROR) when a check fails, one
  expecting the library's exception, run by `exec` lines in lower case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from migrator.batch import pipeline
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.suites.output_lines import compile_pattern, count_summaries, read_output, read_summary
from migrator.suites.plain import script_runs
from migrator.suites.session import SuiteOptions

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "suites"


def _run(
    tmp_path: Path,
    pg_engine,
    name: str,
    break_unit: tuple[str, str, str] | None = None,
    monkeypatch=None,
    lib: str | None = None,
    disabled_rules: frozenset[str] = frozenset(),
):
    if break_unit is not None:
        assert monkeypatch is not None
        real = pipeline.convert_unit
        unit_id, old, new = break_unit

        def broken(unit, ctx):
            done = real(unit, ctx)
            if unit.id == unit_id:
                assert old in done.output, done.output
                done.output = done.output.replace(old, new)
            return done

        monkeypatch.setattr(pipeline, "convert_unit", broken)
    src = FIXTURES / name
    out = tmp_path / name
    opts = MigrateOptions(
        schema="app",
        deploy=pg_engine.admin_dsn(),
        progress=False,
        workers=1,
        suite=SuiteOptions(dirs=(src / "tests",)),
        disabled_rules=disabled_rules,
    )
    report = migrate(FIXTURES / lib / "lib" if lib else src / "lib", out, opts)
    tests = json.loads((out / "tests.json").read_text(encoding="utf-8"))
    return report, tests, {t["name"]: t for t in tests["tests"]}


def _summary(tests: dict) -> tuple[int, int]:
    c = count_summaries([t["output"] for t in tests["tests"]])
    return c.passed, c.total


@pytest.mark.slow
def test_sqlplus_master_script(tmp_path, pg_engine):
    report, tests, results = _run(tmp_path, pg_engine, "plain_scripts")
    # run_all.sql's order (setup, text, stock, teardown), not the files' names; the setup's and
    # teardown's statements are not tests
    assert list(results) == [
        "tests/test_text.sql:2",
        "tests/test_text.sql:12",
        "tests/test_text.sql:33",
        "tests/test_stock.sql:2",
        "tests/test_stock.sql:8",
        "tests/test_stock.sql:22",
        "tests/test_stock.sql:37",
        "tests/teardown.sql:2",
    ]
    assert tests["totals"]["passed"] == 8, results
    assert {t["suite"] for t in tests["tests"]} == {"tests/run_all.sql"}
    # each block saw what the blocks before it left (the rows the setup inserted, 30 bolts taken)
    assert results["tests/test_stock.sql:8"]["output"] == ["PASS: 70 bolts left"]
    assert results["tests/test_stock.sql:22"]["output"] == ["PASS: overdraw refused"]
    # the results table the blocks wrote is counted by the last block: the suite's own summary
    assert results["tests/teardown.sql:2"]["output"] == ["Passed: 10 / 10"]
    assert _summary(tests) == (10, 10)
    units = {u.id: u for u in report.units}
    assert units["procedure:app.take_stock"].category == "correct"


@pytest.mark.slow
def test_sqlplus_master_script_broken(tmp_path, pg_engine, monkeypatch):
    # take_stock takes twice what it is asked for
    broken = ("procedure:app.take_stock", "qty = qty - p_qty", "qty = qty - 2 * p_qty")
    report, tests, results = _run(tmp_path, pg_engine, "plain_scripts", broken, monkeypatch)
    assert results["tests/test_stock.sql:8"]["outcome"] == "failed"
    assert results["tests/test_stock.sql:8"]["message"] == "FAIL: bolts left: 40"
    assert results["tests/test_stock.sql:37"]["outcome"] == "failed"  # the value of what is left
    assert results["tests/test_text.sql:2"]["outcome"] == "passed"
    assert results["tests/teardown.sql:2"]["outcome"] == "failed"
    assert results["tests/teardown.sql:2"]["output"] == ["Passed: 8 / 10"]
    assert _summary(tests) == (8, 10)
    # the failing blocks only read what take_stock left: its unit is not proven correct by the
    # block that called it and passed
    take = {u.id: u for u in report.units}["procedure:app.take_stock"]
    assert take.category != "correct" and "a later test of the same script failed" in take.notes[-1]
    assert {u.id: u for u in report.units}["function:app.stock_value"].category == "wrong"


@pytest.mark.slow
def test_assert_package_run_all(tmp_path, pg_engine):
    report, tests, results = _run(tmp_path, pg_engine, "plain_assert_pkg")
    # the entry point only: the tests run_all calls, its setup and the helper are not tests
    assert list(results) == ["test_payroll.run_all"]
    run_all = results["test_payroll.run_all"]
    assert run_all["outcome"] == "passed", run_all
    assert run_all["output"][-1] == "OK (9 tests)"
    assert "  ok: one day short of 4 years" in run_all["output"]
    assert _summary(tests) == (9, 9)
    assert {u.id: u for u in report.units}["package_body:app.payroll"].category == "correct"


@pytest.mark.slow
def test_assert_package_run_all_broken(tmp_path, pg_engine, monkeypatch):
    # net pay rounded to whole units: net_pay(1) is 1, not .78 (net_pay(1000) is still 780)
    old = "RETURN ROUND(p_gross * (1 - payroll.c_tax_rate()), 2);"
    broken = ("package_body:app.payroll", old, old.replace(", 2)", ", 0)"))
    report, tests, results = _run(tmp_path, pg_engine, "plain_assert_pkg", broken, monkeypatch)
    run_all = results["test_payroll.run_all"]
    assert run_all["outcome"] == "failed"
    assert run_all["message"] == "FAILED: net_pay(1) (expected <.78> but was <1>)"
    assert run_all["output"][-1] == "FAILURES!!! Tests run: 9, Failures: 1"
    assert _summary(tests) == (8, 9)
    assert {u.id: u for u in report.units}["package_body:app.payroll"].category == "wrong"


@pytest.mark.slow
def test_one_block_with_local_assertion_helpers(tmp_path, pg_engine, monkeypatch):
    # helpers nested in the block count into its variables (lifted with them), and take numbers
    # for VARCHAR2 parameters as Oracle converts them
    report, tests, results = _run(tmp_path, pg_engine, "plain_local_asserts")
    block = results["tests/test_str_util.sql:3"]
    assert block["outcome"] == "passed", block
    assert block["output"][-1] == "Tests run: 6, Passed: 6, Failed: 0"
    assert _summary(tests) == (6, 6)
    broken = ("package_body:app.str_util", "'[^ ]+'", "'[^ ]'")  # counts letters, not words
    report, tests, results = _run(tmp_path / "b", pg_engine, "plain_local_asserts", broken, monkeypatch)
    block = results["tests/test_str_util.sql:3"]
    assert block["outcome"] == "failed"
    assert block["message"] == "FAIL: count words expected [3] got [6]"
    assert block["output"][-1] == "Tests run: 6, Passed: 5, Failed: 1"
    assert _summary(tests) == (5, 6)


@pytest.mark.slow
def test_a_scripts_own_transaction_control(tmp_path, pg_engine):
    # rows pending until a COMMIT, undone by the script's ROLLBACK (a global temporary table's
    # too); a procedure's COMMIT commits what is pending and survives a later ROLLBACK
    report, tests, results = _run(tmp_path, pg_engine, "plain_transactions", lib="plain_scripts")
    assert [t["outcome"] for t in tests["tests"]] == ["passed"] * 4, results
    assert results["tests/tx_tests.sql:23"]["output"] == [
        "PASS: the rollback undid the rows (0)",
        "PASS: and the results (0)",
    ]
    assert results["tests/tx_tests.sql:33"]["output"] == ["PASS: the commit emptied the results (0)"]
    assert results["tests/tx_tests.sql:44"]["output"][0] == "PASS: the committed row survives the rollback"


@pytest.mark.slow
def test_test_code_converts_with_the_runs_rules(tmp_path, pg_engine):
    # the run's rule set is the test code's too: without expr.implicit_to_text the helper's
    # VARCHAR2 parameters no longer take the numbers Oracle converts implicitly
    report, tests, results = _run(
        tmp_path, pg_engine, "plain_assert_pkg", disabled_rules=frozenset({"expr.implicit_to_text"})
    )
    run_all = results["test_payroll.run_all"]
    assert run_all["outcome"] == "error"
    assert "test_payroll.assert_equals(integer, numeric, unknown) does not exist" in run_all["message"]
    code = (tmp_path / "plain_assert_pkg" / "package_body" / "app.test_payroll.sql").read_text(encoding="utf-8")
    assert "oracompat.to_text(780)" not in code


@pytest.mark.slow
def test_procedures_that_raise(tmp_path, pg_engine, monkeypatch):
    report, tests, results = _run(tmp_path, pg_engine, "plain_raise")
    assert [(n, t["outcome"]) for n, t in results.items()] == [
        ("tests/run_tests.sql:4", "passed"),
        ("tests/run_tests.sql:5", "passed"),
        ("tests/run_tests.sql:6", "passed"),  # the expected ORA-20200 was raised and caught
    ]
    # a month end one day early fails the test that executes it
    old = "RETURN oracompat.last_day(CAST(DATE_TRUNC('day', p_day) AS TIMESTAMP(0)));"
    broken = ("function:app.month_end", old, old.replace(";", " - interval '1 day';"))
    report, tests, results = _run(tmp_path / "b", pg_engine, "plain_raise", broken, monkeypatch)
    first = results["tests/run_tests.sql:4"]
    assert first["outcome"] == "failed"
    assert first["message"] == "ORA-20999: Assertion failed: leap February"
    assert results["tests/run_tests.sql:5"]["outcome"] == "passed"
    assert {u.id: u for u in report.units}["function:app.month_end"].category == "wrong"


@pytest.mark.slow
def test_one_rerunnable_file_with_a_summary_query(tmp_path, pg_engine, monkeypatch):
    report, tests, results = _run(tmp_path, pg_engine, "plain_onefile")
    # the block that drops the results table of a previous run, the package's run, the query
    assert list(results) == ["tests/test_shipping.sql:8", "tests/test_shipping.sql:69", "tests/test_shipping.sql:74"]
    assert tests["totals"]["passed"] == 3, results
    run = results["tests/test_shipping.sql:69"]["output"]
    assert run[0] == "Test case 1 (EU 2.3 kg) ... passed" and len(run) == 6  # PUT then PUT_LINE: one line
    # the summary a query counts from the results table, printed as SQL*Plus prints its row
    assert results["tests/test_shipping.sql:74"]["output"] == ["Tests: 6, Passed: 6, Failed: 0"]
    assert _summary(tests) == (6, 6)
    broken = ("function:app.shipping_cost", "CEIL(p_weight_kg)", "TRUNC(p_weight_kg)")
    report, tests, results = _run(tmp_path / "b", pg_engine, "plain_onefile", broken, monkeypatch)
    assert results["tests/test_shipping.sql:69"]["outcome"] == "failed"
    assert results["tests/test_shipping.sql:69"]["message"] == "Test case 1 (EU 2.3 kg) ... FAILED"
    assert results["tests/test_shipping.sql:74"]["outcome"] == "failed"
    assert results["tests/test_shipping.sql:74"]["output"] == ["Tests: 6, Passed: 5, Failed: 1"]
    assert _summary(tests) == (5, 6)
    assert {u.id: u for u in report.units}["function:app.shipping_cost"].category == "wrong"


@pytest.mark.slow
def test_separate_scripts_without_a_master(tmp_path, pg_engine, monkeypatch):
    # setup.sql, stock_tests.sql, teardown.sql: the setup first and the teardown last whatever
    # their names' order, one after another on the same database, each in a session of its own
    report, tests, results = _run(tmp_path, pg_engine, "plain_separate", lib="plain_scripts")
    assert [(n, t["outcome"]) for n, t in results.items()] == [
        ("tests/stock_tests.sql:21", "passed"),
        ("tests/stock_tests.sql:25", "passed"),
        ("tests/stock_tests.sql:30", "passed"),
        ("tests/stock_tests.sql:38", "passed"),
    ]
    assert results["tests/stock_tests.sql:38"]["output"] == ["3 tests, 3 passed, 0 failed"]
    broken = ("procedure:app.take_stock", "qty = qty - p_qty", "qty = qty - 2 * p_qty")
    report, tests, results = _run(tmp_path / "b", pg_engine, "plain_separate", broken, monkeypatch, "plain_scripts")
    assert results["tests/stock_tests.sql:25"]["message"] == "[FAIL] value after taking 15 screws"
    assert results["tests/stock_tests.sql:38"]["output"] == ["3 tests, 2 passed, 1 failed"]
    assert _summary(tests) == (2, 3)
    assert {u.id: u for u in report.units}["procedure:app.take_stock"].category == "wrong"


@pytest.mark.slow
def test_tests_written_as_queries(tmp_path, pg_engine, monkeypatch):
    report, tests, results = _run(tmp_path, pg_engine, "plain_queries", lib="plain_scripts")
    assert [(t["output"], t["outcome"]) for t in tests["tests"]] == [
        (["PASS: title_case"], "passed"),
        (["PASS: pad_code"], "passed"),
        (["word_count ok"], "passed"),
    ]
    broken = ("function:app.pad_code", "AS INT), '0')", "AS INT), ' ')")
    report, tests, results = _run(tmp_path / "b", pg_engine, "plain_queries", broken, monkeypatch, "plain_scripts")
    assert results["tests/query_tests.sql:2"]["outcome"] == "failed"
    assert results["tests/query_tests.sql:2"]["message"] == "FAIL: pad_code"
    assert results["tests/query_tests.sql:1"]["outcome"] == "passed"
    assert {u.id: u for u in report.units}["function:app.pad_code"].category == "wrong"


@pytest.mark.parametrize(
    ("line", "failed", "passed", "total"),
    [
        ("10 tests, 9 passed, 1 failed", 1, 9, 10),
        ("Tests run: 10, Failures: 1, Errors: 1", 2, None, 10),
        ("FAILURES!!! Tests run: 10, Failures: 2", 2, None, 10),
        ("OK (12 tests)", 0, 12, 12),
        ("Passed: 9 / 10", 1, 9, 10),
        ("passed: 9/10", 1, 9, 10),
        ("Result: 8 of 10 passed", 2, 8, 10),
        ("All 10 tests passed", 0, 10, 10),
        ("TOTAL: 12  PASSED: 12  FAILED: 0", 0, 12, 12),
        ("Failures: 0", 0, None, None),
    ],
)
def test_summary_forms(line, failed, passed, total):
    s = read_summary(line)
    assert s is not None and (s.failed, s.passed, s.total) == (failed, passed, total)


@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ("PASS: title_case", True),
        ("test_add ... FAILED", False),
        ("Test 3: passed", True),
        ("round(2.5) - FAIL: got 2", False),
        ("Assertion failed: expected 1 got 2", False),
        ("[ ok ] pad_code", True),
        ("Logging: error level set", None),
        ("test_add PASSED", True),
        ("Test 3 FAILED (0.01 s)", False),
        ("Checked: no error", None),
        ("it is not ok", False),
        ("took 30 bolts", None),
        ("Step 1 of 3", None),
    ],
)
def test_result_lines(line, verdict):
    got = read_output([line], compile_pattern(None))
    assert read_summary(line) is None
    assert (True if got.passed_lines else False if got.failed_lines else None) is verdict


def test_script_order_follows_includes():
    files = ["t/run_all.sql", "t/setup.sql", "t/test_a.sql", "t/teardown.sql", "u/other.sql"]
    includes = {"t/run_all.sql": ["t/setup.sql", "t/test_a.sql", "t/teardown.sql"]}
    assert script_runs(files, includes) == [
        ("t/run_all.sql", ["t/run_all.sql", "t/setup.sql", "t/test_a.sql", "t/teardown.sql"]),
        ("u/other.sql", ["u/other.sql"]),
    ]
    # without a master script: setup first, teardown last, the others by name
    assert [r for r, _ in script_runs(["t/teardown.sql", "t/a_tests.sql", "t/setup.sql", "t/z.sql"], {})] == [
        "t/setup.sql",
        "t/a_tests.sql",
        "t/z.sql",
        "t/teardown.sql",
    ]
    # a cycle of includes still runs every file once
    assert script_runs(["a.sql", "b.sql"], {"a.sql": ["b.sql"], "b.sql": ["a.sql"]}) == [("a.sql", ["a.sql", "b.sql"])]


def test_migrate_without_tests_imports_no_suite_code(tmp_path):
    """`migrate` without --tests spends nothing on suites: not one migrator.suites module is
    imported (a fresh interpreter; benchmarks/bench_plain_suites.py prints the timings)."""
    import subprocess
    import sys

    src = Path(__file__).resolve().parents[3] / "fixtures" / "schemas" / "utilities"
    code = (
        "import sys\nfrom pathlib import Path\nfrom migrator.batch.pipeline import MigrateOptions, migrate\n"
        f"migrate(Path({str(src)!r}), Path({str(tmp_path / 'o')!r}), "
        "MigrateOptions(schema='utilities', deploy=None, progress=False, workers=1))\n"
        "print(sorted(m for m in sys.modules if m.startswith('migrator.suites')))\n"
    )
    root = str(Path(__file__).resolve().parents[3])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_script_steps_on_the_runner(pg_engine):
    """A script's steps run in order and keep what they do; a statement that succeeds is no test,
    one that fails is an `error`; a replayed CREATE that exists is no error; a query's rows are
    its output; the session's state carries from step to step of one script, not to the next."""
    import psycopg

    from harness.engines.postgres import scratch_database
    from harness.judge.deploy import deploy_units
    from migrator.suites import model
    from migrator.suites.output_lines import DEFAULT_RESULT_PATTERN
    from migrator.suites.runner import run_tests

    def step(name: str, body: str, suite: str = "a.sql", **kw) -> model.SuiteTest:
        return model.SuiteTest(name, suite, model.TestStyle.PLAIN, name, body, script=True, shares_session=True, **kw)

    pattern = DEFAULT_RESULT_PATTERN
    with scratch_database(pg_engine, prefix="script") as dsn:
        pre, outcomes = deploy_units(dsn, "", [("t", "CREATE TABLE t (a int);", ())])
        assert pre.ok and outcomes[0].ok
        db = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
        tests = [
            step("a:1", "CREATE TABLE t (a int);", statement=True, exists_ok=True),
            step("a:2", "INSERT INTO t VALUES (1), (2);", statement=True),
            step("a:3", "SELECT set_config('my.state', 'kept', false)"),
            step("a:4", "INSERT INTO no_such_table VALUES (1);", statement=True),
            step(
                "a:5", "SELECT 'Tests: ' || count(*) || ', Failed: 0' FROM t", result_pattern=pattern, prints_rows=True
            ),
            step("a:6", "SELECT 'state ' || current_setting('my.state', true)", prints_rows=True),
            step(
                "b:1",
                "SELECT 'state ' || coalesce(current_setting('my.state', true), 'fresh')",
                "b.sql",
                prints_rows=True,
            ),
            step("b:2", "SELECT 'FAIL: rows ' || count(*) FROM t", "b.sql", result_pattern=pattern, prints_rows=True),
        ]
        run = run_tests(pg_engine, db, tests, timeout_ms=5_000)
    got = {r.name: r for r in run.results}
    assert list(got) == ["a:3", "a:4", "a:5", "a:6", "b:1", "b:2"]  # the statements that worked are no tests
    assert got["a:4"].outcome is model.Outcome.ERROR and "script statement failed: SQLSTATE 42P01" in got["a:4"].message
    assert got["a:5"].output == ["Tests: 2, Failed: 0"] and got["a:5"].outcome is model.Outcome.PASSED
    assert got["a:6"].output == ["state kept"]
    assert got["b:1"].output == ["state fresh"]  # the next script: a session state of its own
    assert got["b:2"].output == ["FAIL: rows 2"] and got["b:2"].outcome is model.Outcome.FAILED  # a's rows stay
    assert all(r.script for r in run.results)
