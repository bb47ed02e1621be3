"""Test code deployed routine by routine (what did not convert raises why), EXEC lines, and
missing objects explained by the test code that did not deploy."""

from __future__ import annotations

from migrator.convert.context import unconverted_marker
from migrator.source.units import SourceSpan, Unit, UnitKind
from migrator.suites import model, styles
from migrator.suites.partial import runnable
from migrator.suites.session import exec_call, explain_missing

GOOD = "CREATE OR REPLACE FUNCTION p.ok() RETURNS int LANGUAGE plpgsql AS $fn$\nBEGIN\n    RETURN 1;\nEND;\n$fn$"
BAD_BODY = (
    "CREATE OR REPLACE FUNCTION p.dyn(a text) RETURNS text LANGUAGE plpgsql AS $fn$\nBEGIN\n    "
    + unconverted_marker("EXECUTE IMMEDIATE USING OUT", "execute immediate x using out y")
    + ";\nEND;\n$fn$"
)
UNPARSABLE = "CREATE OR REPLACE FUNCTION p.xml(a xml) RETURNS text LANGUAGE plpgsql AS $fn$\nBEGIN\n    RETURN a.extract('/').getclobval();\nEND;\n$fn$"  # noqa: E501
BAD_HEAD = (
    "CREATE OR REPLACE FUNCTION p.outf("
    + unconverted_marker("function OUT parameter", "x")
    + ") RETURNS int LANGUAGE plpgsql AS $fn$\nBEGIN\nRETURN 1;\nEND;\n$fn$"
)  # noqa: E501


def test_routines_that_did_not_convert_raise_why():
    text = ";\n\n".join([unconverted_marker("not converted", "a") + "", GOOD, BAD_BODY, UNPARSABLE, BAD_HEAD]) + ";\n"
    r = runnable(text)
    assert [s.split(":")[0] for s in r.stubbed] == ["p.dyn", "p.xml"]
    assert "EXECUTE IMMEDIATE USING OUT" in r.stubbed[0]
    assert len(r.dropped) == 1 and "p.outf" in r.dropped[0]
    assert "MIGRATOR_UNCONVERTED" not in r.text.replace("-- left out", "")[: r.text.find("-- left out")]
    assert "RETURN 1;" in r.text  # the good routine is kept as it was
    assert "ERRCODE = '0A000'" in r.text and "p.dyn is not converted: EXECUTE IMMEDIATE USING OUT" in r.text


def test_runnable_executes(pg_dsn):
    import psycopg

    text = ";\n\n".join(["CREATE SCHEMA p", GOOD, BAD_BODY, UNPARSABLE]) + ";\n"
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(runnable(text).text.encode())
        assert conn.execute("SELECT p.ok()").fetchone() == (1,)
        try:
            conn.execute("SELECT p.dyn('x')")
        except psycopg.Error as exc:
            assert exc.sqlstate == "0A000" and "p.dyn is not converted" in str(exc)
        else:
            raise AssertionError("a stub must raise")


def test_exec_lines():
    assert exec_call("EXEC pkg.p(1, 'a');") == "pkg.p(1, 'a')"
    assert exec_call("execute pkg.p(1, -\n   2)") == "pkg.p(1,    2)"  # the text kept as written
    assert exec_call("EXECUTE  x") == "x"
    assert exec_call("SET SERVEROUTPUT ON") is None
    assert exec_call("EXEC") is None


def test_missing_objects_name_the_test_code_that_did_not_deploy():
    span = SourceSpan("f", 1, 1, 0, 1)
    logger = styles.TestCode(Unit("package_body:s.logger", UnitKind.PACKAGE_BODY, "s", "logger", "x", span), "")
    run = model.TestRun(
        [
            model.TestResult(
                "a",
                "s",
                model.TestStyle.FRAMEWORK,
                model.Outcome.ERROR,
                "SQLSTATE 42883: procedure logger.log(text) does not exist",
            ),  # fmt: skip
            model.TestResult(
                "b",
                "s",
                model.TestStyle.FRAMEWORK,
                model.Outcome.ERROR,
                "SQLSTATE 42883: function mylogger.x() does not exist",
            ),  # fmt: skip
        ]
    )
    explain_missing(run, [logger], {"package_body:s.logger": "refused by PostgreSQL: type t does not exist"})
    assert run.results[0].message.endswith(
        "(test code package_body:s.logger did not deploy: refused by PostgreSQL: type t does not exist)"
    )
    assert "did not deploy" not in run.results[1].message
