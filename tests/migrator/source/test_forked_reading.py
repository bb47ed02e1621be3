"""Reading and dependency scanning on forked processes give exactly what one process gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from migrator import forked
from migrator.source import reader
from migrator.source.dependencies import analyze_dependencies

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "schemas"


@pytest.mark.skipif(not forked.can_fork(), reason="fork does not exist on this platform")
@pytest.mark.parametrize("schema", ["utilities", "inventory"])
def test_forked_read_and_scan_match_one_process(schema, monkeypatch):
    monkeypatch.setattr(reader, "MIN_FILES_FOR_WORKERS", 1)  # the fixtures have fewer files than the bar
    one = reader.read_schema_dir(FIXTURES / schema)
    many = reader.read_schema_dir(FIXTURES / schema, workers=2)
    assert many.units == one.units and many.issues == one.issues and many.files == one.files
    g1, g2 = analyze_dependencies(one), analyze_dependencies(many, workers=2)
    assert g2.order == g1.order and g2.cycles == g1.cycles and g2.missing == g1.missing
    assert g2.predecessors == g1.predecessors
    assert [u.references for u in many.units] == [u.references for u in one.units]
    assert [u.parent_id for u in many.units] == [u.parent_id for u in one.units]


def test_fork_map_keeps_order_and_runs_elsewhere():
    import os

    items = list(range(200))
    got = forked.fork_map(lambda x: (x * x, os.getpid()), items, workers=2, chunk=16)
    assert [v for v, _ in got] == [x * x for x in items]
    if forked.can_fork():
        assert os.getpid() not in {pid for _, pid in got}
