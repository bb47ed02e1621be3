"""A unit's conversion depends on the unit and its context alone: the compile target and the package
constants conditional compilation reads travel in the context, so two conversions of the same unit
for different targets (or schemas) in one process never see each other's (a global used to leak)."""

from __future__ import annotations

from pathlib import Path

import pytest

from migrator.convert.compile_target import CompileTarget
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.reader import read_schema_dir

TRACED = (
    "CREATE OR REPLACE FUNCTION traced RETURN NUMBER IS\nBEGIN\n"
    "  $IF DBMS_DB_VERSION.VER_LE_11 $THEN RETURN 11;\n"
    "  $ELSIF cfg.c_trace AND $$level > 1 $THEN RETURN 2;\n"
    "  $ELSE RETURN 1; $END\nEND traced;\n/\n"
)
OLD = CompileTarget((11, 2))
LEVEL_2 = CompileTarget((19, 0), (("level", 2),))


def _schema(folder: Path, trace: str) -> Path:
    folder.mkdir()
    (folder / "cfg.pks").write_text(
        f"CREATE OR REPLACE PACKAGE cfg AS\n  c_trace CONSTANT BOOLEAN := {trace};\nEND cfg;\n/\n"
    )
    (folder / "traced.fnc").write_text(TRACED)
    return folder


@pytest.mark.parametrize("order", [(OLD, LEVEL_2, OLD), (LEVEL_2, OLD, LEVEL_2)])
def test_the_same_unit_for_two_targets_in_either_order(tmp_path, order):
    folder = _schema(tmp_path / "app", "TRUE")
    expected = {OLD: "RETURN 11;", LEVEL_2: "RETURN 2;"}
    for target in order:  # a fresh context each time: what a run for that target builds
        source = read_schema_dir(folder, "app")
        ctx = prepare_context(source, target=target)
        (unit,) = [u for u in source.units if u.name == "traced"]
        assert _return_line(convert_unit(unit, ctx).output) == expected[target]


def test_two_live_contexts_interleaved(tmp_path):
    """Both contexts prepared first, then used in turn: neither target nor the other schema's
    package constants leak into the other's conversion (the parse of one is not the other's)."""
    traced = _schema(tmp_path / "traced", "TRUE")
    quiet = _schema(tmp_path / "quiet", "FALSE")
    runs = []
    for folder, target in ((traced, LEVEL_2), (quiet, LEVEL_2), (traced, OLD)):
        source = read_schema_dir(folder, "app")
        (unit,) = [u for u in source.units if u.name == "traced"]
        runs.append((unit, prepare_context(source, target=target)))
    expected = ["RETURN 2;", "RETURN 1;", "RETURN 11;"]
    for _ in range(2):
        for (unit, ctx), want in zip(runs, expected):
            assert _return_line(convert_unit(unit, ctx).output) == want
        runs.reverse()
        expected.reverse()


def test_the_note_names_the_context_target(tmp_path):
    source = read_schema_dir(_schema(tmp_path / "app", "TRUE"), "app")
    (unit,) = [u for u in source.units if u.name == "traced"]
    notes = convert_unit(unit, prepare_context(source, target=OLD)).notes
    assert any("Oracle 11.2" in n for n in notes)
    notes = convert_unit(unit, prepare_context(source, target=LEVEL_2)).notes
    assert any("Oracle 19.0 (PLSQL_CCFLAGS: level:2)" in n for n in notes)


def _return_line(out: str) -> str:
    returns = [line.strip() for line in out.splitlines() if line.strip().startswith("RETURN ")]
    assert len(returns) == 1, out
    return returns[0]
