"""Table data at volume: `migrator data load` of a generated INSERT export against psql's `\\copy`
of the same rows as CSV, measured in the same run on the same server.

    python benchmarks/bench_data.py                 # 1,000,000 rows (issue #28's size)
    python benchmarks/bench_data.py --rows 100000   # smaller, same shape
    python benchmarks/bench_data.py --workers 2     # the export read by 2 processes, chunks on 2 connections

The export (SQL Developer style: `REM INSERTING into`, `SET DEFINE OFF;`, `Insert into … values`)
has three tables linked by foreign keys — region ← customer ← orders, the children first in the
file — with DATE values through `to_date` masks, timestamps with fractions and with zones, NULLs,
'' (NULL in Oracle), quotes and newlines inside strings, text of 4,000 characters, numbers of
every precision and with exponents, and planted bad rows: a duplicate key, an orphan, a value too
long, a date that does not exist, a CHECK violation. Printed: rows/s of each, the ratio, the
loader's peak RSS, the size of data-report.json, and whether every planted row is in a reject file
and the checksums agree. Targets (issue #28): ratio <= 3, RSS <= 500 MB, report <= 1 MB.
MIGRATOR_PG_DSN: a server to use (a superuser: databases are created); else an embedded one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DDL = """
CREATE TABLE region (region_id integer PRIMARY KEY, name varchar(40) NOT NULL);
CREATE TABLE customer (
  cust_id integer PRIMARY KEY, region_id integer NOT NULL REFERENCES region, name varchar(100),
  born timestamp(0), balance numeric(12,2), score double precision, vip numeric(1), note varchar(4000));
CREATE TABLE orders (
  order_id bigint PRIMARY KEY, cust_id integer REFERENCES customer, ordered_at timestamp(6),
  shipped timestamptz, amount numeric(18,4) CHECK (amount >= 0), qty numeric(10), ratio numeric,
  status char(1), comments varchar(200));
"""
ZONES = ["+02:00", "-05:00", "+00:00", "+05:30"]


def _q(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _csv(v: str | None) -> str:
    if v is None:
        return ""
    return '"' + v.replace('"', '""') + '"'


def generate(folder: Path, rows: int, seed: int = 28) -> dict[str, int]:
    """export.sql (INSERTs, planted bad rows) and <table>.csv (the good rows) in `folder`."""
    rnd = random.Random(seed)
    n_region = 100
    n_customer = max(10, rows * 3 // 10)
    n_orders = rows - n_region - n_customer
    planted = {"customer": 0, "orders": 0}
    with (folder / "export.sql").open("w", encoding="utf-8") as sql, \
         (folder / "region.csv").open("w", encoding="utf-8") as rc, \
         (folder / "customer.csv").open("w", encoding="utf-8") as cc, \
         (folder / "orders.csv").open("w", encoding="utf-8") as oc:  # fmt: skip
        sql.write("SET DEFINE OFF;\nREM INSERTING into ORDERS\n")
        for i in range(1, n_orders + 1):
            cust = rnd.randint(1, n_customer)
            y, mo, d = rnd.randint(1990, 2030), rnd.randint(1, 12), rnd.randint(1, 28)
            frac = rnd.randint(0, 999999)
            at = f"{y:04d}-{mo:02d}-{d:02d} {rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}:{rnd.randint(0, 59):02d}.{frac:06d}"
            zone = ZONES[i % 4]
            shipped = None if i % 7 == 0 else f"{y:04d}-{mo:02d}-{d:02d} 12:00:00.5 {zone}"
            amount = f"{rnd.randint(0, 10**13)}.{rnd.randint(0, 9999):04d}"
            ratio = f"{rnd.randint(1, 999)}E-{rnd.randint(1, 12)}"
            comments = [None, "", "plain", "with \"double\" and 'single'", "line one\nline two"][i % 5]
            vals = [str(i), str(cust), f"TO_TIMESTAMP('{at}','YYYY-MM-DD HH24:MI:SS.FF6')",
                    "NULL" if shipped is None else f"TO_TIMESTAMP_TZ('{shipped}','YYYY-MM-DD HH24:MI:SS.FF TZH:TZM')",
                    amount, str(rnd.randint(0, 10**9)), ratio, _q("ABC"[i % 3]),
                    "NULL" if comments is None else _q(comments)]  # fmt: skip
            sql.write(f"Insert into ORDERS (ORDER_ID,CUST_ID,ORDERED_AT,SHIPPED,AMOUNT,QTY,RATIO,STATUS,COMMENTS) "
                      f"values ({','.join(vals)});\n")  # fmt: skip
            csv_comments = None if not comments else comments  # Oracle '' is NULL
            oc.write(",".join([str(i), str(cust), at, "" if shipped is None else _csv(shipped), amount,
                               vals[5], ratio, "ABC"[i % 3], _csv(csv_comments)]) + "\n")  # fmt: skip
        # planted: a duplicate key, an orphan customer, a negative amount (CHECK), a bad date
        cols = "ORDER_ID,CUST_ID,ORDERED_AT,SHIPPED,AMOUNT,QTY,RATIO,STATUS,COMMENTS"
        for planted_row in (
            "1,1,NULL,NULL,1,1,1,'A','duplicate key'",
            f"{n_orders + 1},{n_customer + 5},NULL,NULL,1,1,1,'A','orphan'",
            f"{n_orders + 2},1,NULL,NULL,-1,1,1,'A','negative amount'",
            f"{n_orders + 3},1,to_date('30-FEB-2020','DD-MON-YYYY'),NULL,1,1,1,'A','no such date'",
        ):
            sql.write(f"Insert into ORDERS ({cols}) values ({planted_row});\n")
        planted["orders"] = 4
        sql.write("REM INSERTING into CUSTOMER\n")
        months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        for i in range(1, n_customer + 1):
            y, mo, d = rnd.randint(1930, 2005), rnd.randint(1, 12), rnd.randint(1, 28)
            name = [f"Name {i}", f"O'Brien {i}", f'The "{i}"', f"Multi\nline {i}"][i % 4]
            note = ("x" * 3990 + f"{i:010d}") if i % 500 == 0 else ("" if i % 3 == 0 else f"note {i}; ok")
            balance = f"{rnd.randint(-(10**9), 10**9)}.{rnd.randint(0, 99):02d}"
            score = f"{rnd.random() * 10 ** rnd.randint(-5, 5):.15g}"
            vals = [str(i), str(rnd.randint(1, n_region)), _q(name),
                    f"to_date('{d:02d}-{months[mo - 1]}-{y}','DD-MON-YYYY')", balance, score, str(i % 2),
                    "NULL" if not note else _q(note)]  # fmt: skip
            sql.write(
                f"Insert into CUSTOMER (CUST_ID,REGION_ID,NAME,BORN,BALANCE,SCORE,VIP,NOTE) values ({','.join(vals)});\n"
            )
            cc.write(",".join([str(i), vals[1], _csv(name), f"{y:04d}-{mo:02d}-{d:02d}", balance, score, str(i % 2),
                               _csv(note or None)]) + "\n")  # fmt: skip
        sql.write(f"Insert into CUSTOMER (CUST_ID,REGION_ID,NAME,BORN,BALANCE,SCORE,VIP,NOTE) values "
                  f"({n_customer + 1},1,'{'y' * 101}',NULL,0,0,0,'name too long');\n")  # fmt: skip
        planted["customer"] = 1
        sql.write("REM INSERTING into REGION\n")
        for i in range(1, n_region + 1):
            sql.write(f"Insert into REGION (REGION_ID,NAME) values ({i},N'Région {i}');\n")
            rc.write(f"{i},Région {i}\n")
        sql.write("COMMIT;\n")
    return planted


def _server():
    from harness.engines.postgres import EmbeddedPostgres

    dsn = os.environ.get("MIGRATOR_PG_DSN")
    if dsn:
        from contextlib import nullcontext

        return nullcontext(dsn)
    return _Embedded(EmbeddedPostgres())


class _Embedded:
    def __init__(self, engine):
        self.engine = engine

    def __enter__(self) -> str:
        self.engine.__enter__()
        return self.engine.admin_dsn()

    def __exit__(self, *exc) -> None:
        self.engine.__exit__(*exc)


def _database(admin: str, name: str) -> str:
    import psycopg

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    dsn = psycopg.conninfo.make_conninfo(admin, dbname=name)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(DDL)
    return dsn


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--read-workers", type=int, default=None, help="migrator data load --read-workers")
    ap.add_argument("--no-replay", dest="replay", action="store_false",
                    help="skip replaying OUT/load.sql with psql -f (after the timed part)")  # fmt: skip
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-data-") as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        planted = generate(folder, args.rows)
        size = (folder / "export.sql").stat().st_size
        print(f"generated {args.rows:,} rows ({size / 1e6:.0f} MB of INSERTs) in {time.perf_counter() - t0:.1f} s")
        with _server() as admin:
            csv_dsn = _database(admin, "bench_csv")
            t0 = time.perf_counter()
            for table in ("region", "customer", "orders"):
                cmd = f"\\copy {table} FROM '{folder / (table + '.csv')}' WITH (FORMAT csv)"
                subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", csv_dsn, "-c", cmd], check=True)
            psql_s = time.perf_counter() - t0
            load_dsn = _database(admin, "bench_load")
            out = folder / "out"
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            t0 = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            run = subprocess.run(
                [sys.executable, "-m", "migrator.cli.main", "data", "load", str(folder / "export.sql"),
                 "--pg-dsn", load_dsn, "--out", str(out), "--workers", str(args.workers), "--no-progress"]
                + (["--read-workers", str(args.read_workers)] if args.read_workers else []),
                env=env, capture_output=True, text=True, cwd=ROOT,  # `-m` puts the cwd first on sys.path
            )  # fmt: skip
            load_s = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu_s = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            # ru_maxrss of the children: the loader is by far the largest (psql and the generator are small)
            rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            print(run.stdout[-2000:], run.stderr[-2000:], sep="\n")
            report_path = out / "data-report.json"
            if not report_path.exists():
                print("no data-report.json: the load failed")
                return 1
            report = json.loads(report_path.read_text(encoding="utf-8"))
            rejected = {t["table"]: t["rows_rejected"] for t in report["tables"]}
            agree = all(t["checksums_agree"] and t["source_checksum"] for t in report["tables"])
            loaded = report["rows_loaded"]
            print(f"psql \\copy (CSV): {args.rows:,} rows in {psql_s:.1f} s = {args.rows / psql_s:,.0f} rows/s")
            print(f"migrator data load: {loaded:,} rows in {load_s:.1f} s = {loaded / load_s:,.0f} rows/s")
            print(f"ratio to psql \\copy: {load_s / psql_s:.2f}x (target <= 3)")
            print(f"  of which reading the export: {report.get('read_seconds', 0):.1f} s; the loader's own CPU "
                  f"(its processes, not the server's): {cpu_s:.1f} s; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
            print(f"peak RSS: {rss_mb:.0f} MB (target <= 500)")
            print(f"data-report.json: {report_path.stat().st_size:,} bytes (target <= 1,000,000)")
            print(f"planted bad rows {planted}, rejected {rejected}; checksums agree: {agree}")
            ok = all(rejected.get(t, 0) == n for t, n in planted.items()) and agree and loaded == args.rows
            print("planted rows all rejected, no other row lost:", ok)
            if args.replay:
                ok = _replay(admin, out, report) and ok
            return 0 if ok else 1


def _replay(admin: str, out: Path, report: dict) -> bool:
    """What a user deploys: OUT/load.sql (the COPY scripts, rejected rows already left out) run
    by `psql -f` on an empty copy of the schema, which must not stop, and must hold the same rows:
    each table's checksum, computed there by the server, equal to the load's."""
    import psycopg

    from migrator.data import checksum

    dsn = _database(admin, "bench_replay")
    t0 = time.perf_counter()
    run = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", dsn, "-f", str(out / "load.sql")],
                         capture_output=True, text=True, cwd=out)  # fmt: skip
    seconds = time.perf_counter() - t0
    if run.returncode != 0:
        print(f"psql -f load.sql stopped: {run.stderr[-500:]}")
        return False
    same = True
    with psycopg.connect(dsn, autocommit=True) as conn:
        for t in report["tables"]:
            with conn.transaction():
                cols = checksum.table_columns(conn, t["table"], None)
                got = f"{checksum.loaded_sum(conn, t['table'], cols):016x}"
            same = same and got == t["loaded_checksum"]
    print(f"psql -f load.sql on an empty schema: {seconds:.1f} s, same checksums as the load: {same}")
    return same


if __name__ == "__main__":
    sys.exit(main())
