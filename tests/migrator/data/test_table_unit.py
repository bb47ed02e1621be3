"""A table's data unit in `migrate`: one unit, its literal rows as psql COPY blocks, other
statements converted in order, bad literals rejected into the unit file; the sandbox's
execute_script streams the rows through psycopg's COPY."""

from __future__ import annotations

from pathlib import Path

import psycopg

from harness.judge.deploy import execute_script
from migrator.batch.static_check import check_sql
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.reader import read_schema_dir

EXPORT = """CREATE TABLE t (id NUMBER PRIMARY KEY, name VARCHAR2(20), born DATE);
INSERT INTO t (id, name, born) VALUES (1, 'a''b', TO_DATE('2019-12-31', 'YYYY-MM-DD'));
INSERT INTO t (id, name, born) VALUES (2, q'[x;y]' || CHR(9) || 'z', NULL);
INSERT INTO t (id, name, born) VALUES (3, 'bad', TO_DATE('2019-02-30', 'YYYY-MM-DD'));
INSERT INTO t (id, name) SELECT 4, 'from a query' FROM dual;
INSERT INTO t (id, name, born) VALUES (5, '', DATE '2020-01-01');
"""


def _units(tmp_path: Path):
    (tmp_path / "x.sql").write_text(EXPORT, encoding="utf-8")
    source = read_schema_dir(tmp_path, "hr")
    ctx = prepare_context(source)
    return {u.id: convert_unit(u, ctx) for u in source.units}


def test_one_unit_copy_blocks_statements_in_order_and_rejects(tmp_path):
    done = _units(tmp_path)
    assert sorted(done) == ["data:hr.t", "table:hr.t"]
    out = done["data:hr.t"].output
    first, rest = out.split("\\.\n", 1)
    assert first == ("COPY t (id, name, born) FROM STDIN;\n1\ta'b\t2019-12-31 00:00:00\n2\tx;y\\tz\t\\N\n")
    query, last = rest.split("\n", 1)
    assert query.startswith("INSERT INTO t (id, name) SELECT 4")
    assert last.startswith("COPY t (id, name, born) FROM STDIN;\n5\t\\N\t2020-01-01\n\\.")
    assert "-- x.sql:4: '2019-02-30' read with 'YYYY-MM-DD': day is out of range for month" in out
    assert "--   INSERT INTO t (id, name, born) VALUES (3, 'bad'" in out
    assert any("1 rows rejected" in n for n in done["data:hr.t"].notes)
    assert check_sql(out).ok  # the COPY rows are data, not SQL, to the static check


def test_execute_script_streams_inline_copy_rows(tmp_path, pg_dsn):
    done = _units(tmp_path)
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        assert execute_script(conn, done["table:hr.t"].output) == (None, None)
        assert execute_script(conn, done["data:hr.t"].output) == (None, None)
        rows = conn.execute("SELECT id, name, born::text FROM t ORDER BY id").fetchall()
        assert rows == [(1, "a'b", "2019-12-31 00:00:00"), (2, "x;y\tz", None), (4, "from a query", None),
                        (5, None, "2020-01-01 00:00:00")]  # fmt: skip
        # a unit refused part-way leaves nothing behind: one transaction, as psql -1 would
        err, state = execute_script(conn, "COPY t (id) FROM STDIN;\n9\n\\.\nCOPY t (id) FROM STDIN;\n1\n\\.\n")
        assert state == "23505" and err
        assert conn.execute("SELECT count(*) FROM t WHERE id = 9").fetchone() == (0,)
