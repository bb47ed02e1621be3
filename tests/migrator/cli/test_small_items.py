"""Smaller items of issue #30 (item 10) on the command line: a mistyped option is reported by its
subcommand with the nearest option; the summary of a run with no units ends cleanly."""

from __future__ import annotations

import pytest

from migrator.cli.main import main


def test_a_mistyped_option_names_the_subcommand_and_the_nearest_option(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["migrate", str(tmp_path), "--out", str(tmp_path / "o"), "--verfy"])
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert (
        err.startswith("usage: migrator migrate ") and "unrecognized arguments: --verfy (did you mean --verify?)" in err
    )
    with pytest.raises(SystemExit):
        main(["fix", "freeze", "FIX-001", "--cycels", "c"])
    assert "usage: migrator fix freeze " in capsys.readouterr().err


def test_the_summary_of_a_run_with_no_units_has_no_dangling_dash(tmp_path, capsys):
    src = tmp_path / "txtonly"
    src.mkdir()
    (src / "notes.sql").write_text("-- only a comment\n")
    main(["migrate", str(src), "--out", str(tmp_path / "out"), "--no-deploy"])
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("txtonly: 0 units in ") and first.endswith(" s"), first
