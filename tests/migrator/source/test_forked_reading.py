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


def test_fork_map_runs_meanwhile_here_while_the_workers_map():
    import os

    items = list(range(200))
    ran: list[int] = []
    got = forked.fork_map(
        lambda x: (x + 1, os.getpid()), items, workers=2, chunk=16, meanwhile=lambda: ran.append(os.getpid())
    )
    assert [v for v, _ in got] == [x + 1 for x in items]
    assert ran == [os.getpid()]
    ran.clear()  # no workers: meanwhile still runs, after the map
    assert forked.fork_map(lambda x: x, [1, 2], workers=1, meanwhile=lambda: ran.append(1)) == [1, 2]
    assert ran == [1]


@pytest.mark.parametrize("workers", [1, 2])
def test_started_map_gives_fork_map_result_and_its_error(workers):
    items = list(range(100))
    started = forked.StartedMap(lambda x: x * 3, items, workers, chunk=8)
    assert started.result() == [x * 3 for x in items]

    def bad(x: int) -> int:
        if x == 57:
            raise ValueError("item 57")
        return x

    failing = forked.StartedMap(bad, items, workers, chunk=8)
    with pytest.raises(ValueError, match="item 57"):
        failing.result()
    forked.StartedMap(bad, items, workers, chunk=8).close()  # abandoned: nothing raised, no worker left


def test_reading_started_early_gives_read_schema_dir_and_defers_its_errors(tmp_path, monkeypatch):
    monkeypatch.setattr(reader, "MIN_FILES_FOR_WORKERS", 1)
    one = reader.read_schema_dir(FIXTURES / "utilities")
    many = reader.Reading(FIXTURES / "utilities", None, 2).result()
    assert many.units == one.units and many.issues == one.issues and many.files == one.files
    missing = reader.Reading(tmp_path / "absent", None, 2)  # nothing raised until the result is taken
    with pytest.raises(reader.SourceError, match="does not exist"):
        missing.result()
    missing.close()


def test_after_meanwhile_this_process_takes_the_chunks_no_worker_has_begun():
    import os
    import time

    def slow(x: int) -> tuple[int, int]:
        time.sleep(0.01)
        return x * 2, os.getpid()

    items = list(range(96))
    got = forked.fork_map(slow, items, workers=2, chunk=8)  # no meanwhile: the workers do it all
    assert [v for v, _ in got] == [x * 2 for x in items]
    if forked.can_fork():
        assert os.getpid() not in {pid for _, pid in got}
    # one worker (this process is busy with meanwhile): once free, it runs the trailing chunks
    got = forked.fork_map(slow, items, workers=2, chunk=8, meanwhile=lambda: None)
    assert [v for v, _ in got] == [x * 2 for x in items]
    if forked.can_fork():
        pids = [pid for _, pid in got]
        assert pids[-1] == os.getpid() and pids[0] != os.getpid()
        here = pids.index(os.getpid())  # the worker's chunks first, then this process's
        assert set(pids[:here]) == {pids[0]} and set(pids[here:]) == {os.getpid()}


@pytest.mark.parametrize("on_before", [True, False])
def test_collecting_new_freezes_what_exists_and_restores_the_collector(on_before):
    import gc

    from migrator.forked import collecting_new

    was = gc.isenabled()
    (gc.enable if on_before else gc.disable)()
    try:
        frozen_before = gc.get_freeze_count()
        with collecting_new():
            assert gc.isenabled() and gc.get_freeze_count() > frozen_before
        assert gc.isenabled() is on_before and gc.get_freeze_count() == frozen_before
    finally:
        (gc.enable if was else gc.disable)()
