"""A large table loads in committed chunks; a load stopped mid-table (Ctrl-C, or the process
killed) resumes at the first chunk not committed: nothing twice, nothing lost, the checksums and
the reject file as an uninterrupted load gives them. And the source's own checksum in `data copy`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import psycopg
import pytest

from migrator.data import loader
from migrator.data.run import load

ROWS = 40
BAD = 7  # the row refused (CHECK), in the first chunk: its reject comes back from the journal


def _export(path: Path) -> None:
    lines = ["SET DEFINE OFF;"]
    for i in range(1, ROWS + 1):
        value = -1 if i == BAD else i * 10
        lines.append(f"Insert into ITEM (ID,QTY,NOTE) values ({i},{value},'row {i}');")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def db(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        # no key: a row loaded twice would be counted twice
        conn.execute("CREATE TABLE item (id integer, qty integer CHECK (qty >= 0), note text)")
    return pg_dsn


def _count(dsn: str) -> tuple[int, int]:
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT count(*), count(DISTINCT id) FROM item").fetchone()
        assert row is not None
        return row[0], row[1]


def _check(run, out: Path, dsn: str) -> None:
    (item,) = run.tables
    assert (item.rows_read, item.rows_loaded, item.rows_rejected) == (ROWS, ROWS - 1, 1)
    assert item.checksums_agree and item.source_checksum
    assert _count(dsn) == (ROWS - 1, ROWS - 1)
    bad = (out / "rejects" / "item.bad").read_text(encoding="utf-8")
    assert bad.count("-- export.sql:") == 1 and f"-- export.sql:{BAD + 1}: CHECK" in bad


@pytest.mark.parametrize(("stop_at", "committed"), [(4, (9, [0])), (8, (19, [0, 1]))])
def test_interrupted_load_resumes_at_the_chunk(db, tmp_path: Path, monkeypatch, stop_at, committed):
    # batches of 4 rows, chunks of 10: the batch of rows 8-11 straddles chunks 0 and 1, and the
    # load stops either in chunk 1 (its rows 10-11 must still load on resume) or in chunk 2
    monkeypatch.setattr(loader, "CHUNK_ROWS", 10)
    monkeypatch.setattr(loader, "BATCH_ROWS", 4)
    src = tmp_path / "export.sql"
    _export(src)
    out = tmp_path / "out"
    real = loader._copy_lines
    calls = {"n": 0}

    def interrupted(conn, command, lines):
        calls["n"] += 1
        if calls["n"] == stop_at:
            raise KeyboardInterrupt
        return real(conn, command, lines)

    monkeypatch.setattr(loader, "_copy_lines", interrupted)
    with pytest.raises(KeyboardInterrupt):
        load([src], db, out)
    rows, chunks = committed
    assert _count(db) == (rows, rows)  # whole chunks of 10 rows (one refused); the one stopped rolled back
    journal = [json.loads(x) for x in (out / ".migrator" / "data-load.jsonl").read_text().splitlines()]
    assert [r["chunk"] for r in journal] == chunks
    monkeypatch.setattr(loader, "_copy_lines", real)
    _check(load([src], db, out, resume=True), out, db)


def test_killed_load_resumes_at_the_chunk(db, tmp_path: Path):
    src = tmp_path / "export.sql"
    _export(src)
    out = tmp_path / "out"
    # a process killed in the middle of its third chunk (SIGKILL: no cleanup, the server aborts
    # the open transaction when the connection drops)
    script = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from migrator.data import loader
        from migrator.data.run import load
        loader.CHUNK_ROWS, loader.BATCH_ROWS = 10, 4
        real, calls = loader._copy_lines, [0]
        def killed(conn, command, lines):
            calls[0] += 1
            if calls[0] == 8:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(conn, command, lines)
        loader._copy_lines = killed
        load([Path({str(src)!r})], {db!r}, Path({str(out)!r}))
    """)
    env = dict(os.environ, PYTHONPATH=str(Path(loader.__file__).resolve().parents[2]))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert _count(db) == (19, 19)
    import migrator.data.loader as fresh

    saved = fresh.CHUNK_ROWS, fresh.BATCH_ROWS
    fresh.CHUNK_ROWS, fresh.BATCH_ROWS = 10, 4
    try:
        _check(load([src], db, out, resume=True), out, db)
    finally:
        fresh.CHUNK_ROWS, fresh.BATCH_ROWS = saved


def test_uninterrupted_chunked_load_is_the_same(db, tmp_path: Path, monkeypatch):
    monkeypatch.setattr(loader, "CHUNK_ROWS", 10)
    monkeypatch.setattr(loader, "BATCH_ROWS", 3)
    src = tmp_path / "export.sql"
    _export(src)
    out = tmp_path / "out"
    _check(load([src], db, out), out, db)
    assert "-1" not in (out / "data" / "item.sql").read_text(encoding="utf-8")  # load.sql replays without it


def test_chunks_shared_out_to_workers(db, tmp_path: Path, monkeypatch):
    monkeypatch.setattr(loader, "CHUNK_ROWS", 10)
    monkeypatch.setattr(loader, "BATCH_ROWS", 4)
    src = tmp_path / "export.sql"
    _export(src)
    out = tmp_path / "out"
    _check(load([src], db, out, workers=3), out, db)
    journal = [json.loads(x) for x in (out / ".migrator" / "data-load.jsonl").read_text().splitlines()]
    assert sorted(r["chunk"] for r in journal if "chunk_of" in r) == [0, 1, 2, 3]
