"""What keeping Oracle's NUMBER(p) bound costs: four ways to store a NUMBER(6) column and variable.

Oracle refuses a value of more than p digits in a NUMBER(p) column (ORA-01438) or variable
(ORA-06502). The arms, each on the same rows and the same PL/pgSQL loop:

* ``integer``          — the old mapping: no bound at all (99999999 fits), the speed to beat;
* ``numeric(6)``       — the chosen mapping (rule ``ddl.number_precision``): bound and rounding
  of fractions by the type itself, in columns and PL/pgSQL variables alike;
* ``integer + CHECK``  — a column CHECK: bounds columns only, a PL/pgSQL variable has no CHECK;
* ``domain``           — a domain over integer with a CHECK: bounds columns and variables, but a
  domain per (precision) has to exist before any unit and casts go through domain checks.

Per arm, interleaved, min / median / max over --runs: INSERT of --rows rows, one UPDATE of every
row, SUM and a GROUP BY over the column, and a PL/pgSQL loop of --rows assignments and additions
to a variable of the arm's type.

    python benchmarks/bench_number_bounds.py [--rows 200000] [--runs 5] [--dsn postgresql://...]

Without --dsn (or MIGRATOR_SUPERUSER_DSN) an embedded PostgreSQL is started. A database of its
own is created and dropped.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import uuid
from contextlib import ExitStack

import psycopg

ARMS = {
    "integer": ("integer", "integer"),
    "numeric(6)": ("numeric(6)", "numeric(6)"),
    "integer + CHECK": ("integer CHECK (q BETWEEN -999999 AND 999999)", "integer"),
    "domain": ("num6", "num6"),
}
DOMAIN = "CREATE DOMAIN num6 AS integer CHECK (VALUE BETWEEN -999999 AND 999999)"


def workload(cur: psycopg.Cursor, arm: str, rows: int) -> dict[str, float]:
    column, variable = ARMS[arm]
    table = "t_" + "".join(c for c in arm if c.isalnum())
    cur.execute(f"DROP TABLE IF EXISTS {table}")
    cur.execute(f"CREATE TABLE {table} (id integer, q {column})")
    times: dict[str, float] = {}

    def timed(name: str, sql: str) -> None:
        t0 = time.perf_counter()
        cur.execute(sql)
        times[name] = (time.perf_counter() - t0) * 1000

    timed("insert", f"INSERT INTO {table} SELECT g, g % 900000 FROM generate_series(1, {rows}) g")
    timed("update", f"UPDATE {table} SET q = q + 1")
    timed("sum+group", f"SELECT sum(q), count(*) FROM (SELECT q % 10 k, sum(q) q FROM {table} GROUP BY 1) s")
    timed(
        "plpgsql loop",
        f"DO $$ DECLARE v {variable} := 0; BEGIN FOR i IN 1..{rows} LOOP v := (v + i) % 900000; END LOOP; END $$",
    )
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dsn", default=os.environ.get("MIGRATOR_SUPERUSER_DSN"))
    args = ap.parse_args()
    with ExitStack() as stack:
        dsn = args.dsn
        if not dsn:
            from harness.engines.postgres import EmbeddedPostgres

            dsn = stack.enter_context(EmbeddedPostgres()).admin_dsn()
        name = f"bench_number_bounds_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        try:
            run(psycopg.conninfo.make_conninfo(dsn, dbname=name), args.rows, args.runs)
        finally:
            with psycopg.connect(dsn, autocommit=True) as admin:
                admin.execute(f"DROP DATABASE {name}")
    return 0


def run(dsn: str, rows: int, runs: int) -> None:
    samples: dict[str, dict[str, list[float]]] = {a: {} for a in ARMS}
    with psycopg.connect(dsn, autocommit=True) as conn, conn.cursor() as cur:
        cur.execute(DOMAIN)
        # the bound holds in every arm but the old mapping (shown, not assumed)
        for arm, (_, variable) in ARMS.items():
            try:
                cur.execute(f"DO $$ DECLARE v {variable}; BEGIN v := 99999999; END $$")
                held = "no (99999999 accepted)"
            except psycopg.Error as exc:
                held = f"yes ({exc.sqlstate})"
            print(f"{arm:16s} variable bound: {held}")
        workload(cur, "integer", min(rows, 1000))  # warm the catalog caches
        for i in range(runs):
            order = list(ARMS)[i % len(ARMS) :] + list(ARMS)[: i % len(ARMS)]
            for arm in order:
                for step, ms in workload(cur, arm, rows).items():
                    samples[arm].setdefault(step, []).append(ms)
    print(f"\n{rows} rows, {runs} runs, ms min / median / max (ratio of medians to integer)")
    for step in samples["integer"]:
        base = statistics.median(samples["integer"][step])
        print(f"  {step}")
        for arm in ARMS:
            v = samples[arm][step]
            ratio = statistics.median(v) / base
            print(f"    {arm:16s} {min(v):8.1f} / {statistics.median(v):8.1f} / {max(v):8.1f}   x{ratio:.2f}")


if __name__ == "__main__":
    raise SystemExit(main())
