"""`migrator data copy`: the loader fed by a row source. An in-process source stands in for Oracle;
the live-Oracle test needs an Oracle (MIGRATOR_ORACLE_DSN) and is skipped without one."""

from __future__ import annotations

import datetime as dt
import decimal
import os
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from migrator.data.oracle_source import OracleSource, copy_rows, to_value


class ListSource:
    def __init__(self, data: dict[str, tuple[list[str], list[tuple]]]):
        self.data = data

    def tables(self) -> list[str]:
        return list(self.data)

    def columns(self, table: str) -> list[str]:
        return self.data[table][0]

    def rows(self, table: str) -> Iterator[tuple]:
        yield from self.data[table][1]

    def count(self, table: str) -> int | None:
        return len(self.data[table][1])


def test_driver_values_become_copy_text():
    assert to_value(dt.datetime(2020, 1, 2, 3, 4, 5, 6)) == "2020-01-02 03:04:05.000006"
    assert to_value(decimal.Decimal("1.50")) == "1.50" and to_value("") is None and to_value(b"\x00") == b"\x00"
    assert to_value(dt.timedelta(days=1, seconds=2)) == "1 days 2 seconds 0 microseconds"


def test_rows_from_a_source_load_with_rejects_and_checksums(pg_dsn, tmp_path: Path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE dept (deptno int PRIMARY KEY, dname varchar(5));"
            "CREATE TABLE emp (empno int PRIMARY KEY, deptno int REFERENCES dept, hired timestamp, pay numeric(8,2))"
        )
    source = ListSource({
        "EMP": (["EMPNO", "DEPTNO", "HIRED", "PAY"], [(1, 10, dt.datetime(2020, 1, 1), decimal.Decimal("10.5")),
                                                        (2, 99, None, None), (3, 10, None, decimal.Decimal("1E+2"))]),
        "DEPT": (["DEPTNO", "DNAME"], [(10, "SALES"), (20, "TOO LONG")]),
    })  # fmt: skip
    run = copy_rows(source, pg_dsn, tmp_path / "out", workers=2)
    by = {t.table: t for t in run.tables}
    assert [t.table for t in run.tables] == ["dept", "emp"]
    assert (by["dept"].rows_loaded, by["dept"].rows_rejected) == (1, 1)
    assert (by["emp"].rows_loaded, by["emp"].rows_rejected) == (2, 1)
    assert all(t.checksums_agree and t.source_checksum for t in run.tables) and not run.issues
    assert "-- EMP:row 2: foreign key:" in (tmp_path / "out" / "rejects" / "emp.bad").read_text(encoding="utf-8")


@pytest.mark.skipif(
    not os.environ.get("MIGRATOR_ORACLE_DSN"),
    reason="no Oracle here: set MIGRATOR_ORACLE_DSN=user/pw@host:port/service",
)
def test_oracle_source_reads_tables():  # pragma: no cover - needs an Oracle
    source = OracleSource(os.environ["MIGRATOR_ORACLE_DSN"])
    for table in source.tables()[:3]:
        rows = list(source.rows(table))
        assert source.count(table) == len(rows)
        assert all(len(r) == len(source.columns(table)) for r in rows)


class SummingSource(ListSource):
    """A source that computes the checksum itself, from its own values (as Oracle does by a query)."""

    def __init__(self, data, tamper: bool = False):
        super().__init__(data)
        self.tamper = tamper

    def checksum(self, table: str, columns: list) -> int | None:
        from migrator.data import checksum, copy_text

        canons = [checksum.source_canon(col.type_name) for _, col in columns]
        lines = [copy_text.line(to_value(v) for v in row).encode("utf-8") for row in self.data[table][1]]
        total = checksum.lines_sum(lines, canons)
        return total + 1 if self.tamper else total


@pytest.mark.parametrize("tamper", [False, True])
def test_the_checksum_computed_at_the_source_is_compared(pg_dsn, tmp_path: Path, tamper):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE item (id numeric(10), at timestamptz, note text)")
    rows = [(1, dt.datetime(2020, 1, 2, 3, 4, 5, 600000), "a\tb"), (2, None, "x"), (3, dt.datetime(1999, 1, 1), None)]
    source = SummingSource({"ITEM": (["ID", "AT", "NOTE"], rows)}, tamper=tamper)
    run = copy_rows(source, pg_dsn, tmp_path / "out")
    (item,) = run.tables
    assert item.origin_checksum and item.source_checksum == item.loaded_checksum
    assert item.checksums_agree is (not tamper) and run.ok is (not tamper)
    report = (tmp_path / "out" / "data-report.json").read_text(encoding="utf-8")
    assert f'"origin_checksum": "{item.origin_checksum}"' in report


@pytest.mark.skipif(
    not os.environ.get("MIGRATOR_ORACLE_DSN") or not os.environ.get("MIGRATOR_PG_DSN"),
    reason="no Oracle here: set MIGRATOR_ORACLE_DSN=user/pw@host:port/service (and MIGRATOR_PG_DSN with the tables)",
)
def test_oracle_checksum_query_agrees_with_the_loaded_table(tmp_path: Path):  # pragma: no cover - needs an Oracle
    source = OracleSource(os.environ["MIGRATOR_ORACLE_DSN"])
    tables = source.tables()[:3]
    run = copy_rows(source, os.environ["MIGRATOR_PG_DSN"], tmp_path / "out", tables=tables)
    for t in run.tables:
        assert t.origin_checksum and t.checksums_agree, t
