"""`record --reference` given a `migrator migrate` output folder (issue #30, item 10): its unit
files are the port; deploy.sql (psql's include list) and the extensions file are not deployed, and
the user is told so."""

from __future__ import annotations

import yaml

from harness.ground_truth.trusted_port import port_files, skipped_files
from migrator.cli.main import main


def test_a_migrate_output_as_the_reference_deploys_its_units_not_its_scripts(tmp_path, pg_engine, capsys):
    src = tmp_path / "app"
    src.mkdir()
    (src / "items.sql").write_text("CREATE TABLE items (id NUMBER PRIMARY KEY, name VARCHAR2(20));\n")
    port = tmp_path / "port"
    assert main(["migrate", str(src), "--out", str(port), "--no-deploy"]) == 0
    assert skipped_files(port) == ["deploy.sql", "support/00_extensions.sql"]
    assert [rel for rel, _ in port_files(port)] == ["support/00_preamble.sql", "table/app.items.sql"]

    scenarios = tmp_path / "scen.yaml"
    step = {"name": "count", "oracle": "SELECT count(*) FROM items", "postgres": "SELECT count(*) FROM items"}
    scenarios.write_text(
        yaml.safe_dump({"schema": "app", "scenarios": [{"id": "n", "units": ["table:app.items"], "steps": [step]}]})
    )
    capsys.readouterr()
    argv = [
        "record",
        str(src),
        "--reference",
        str(port),
        "--scenarios",
        str(scenarios),
        "--out",
        str(tmp_path / "t.yaml"),
    ]
    code = main([*argv, "--pg-dsn", pg_engine.admin_dsn(), "--no-progress"])
    captured = capsys.readouterr()
    assert f"{port} is the output folder of a `migrator migrate` run" in captured.err
    assert "deploy.sql and support/00_extensions.sql are not deployed" in captured.err
    assert "not deployed on the reference" not in captured.out, captured.out
    assert code == 0, captured
