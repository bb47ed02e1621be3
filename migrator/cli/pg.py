"""`migrator pg start|stop|status`: a local PostgreSQL that outlives one command.

Without it every `migrate`/`verify` on the embedded default initialises and starts a server of its
own (~0.8 s) and removes it at the end. After `migrator pg start`, those commands attach to the
running server instead; each run still gets its own execution role and scratch databases, dropped
when it ends (harness.engines.postgres: SharedEmbeddedPostgres; MIGRATOR_PG_SHARED=0 ignores it).
"""

from __future__ import annotations

import argparse
import time

EXAMPLES = """examples:
  migrator pg start      # start the shared local server (no-op when it runs)
  migrator pg status     # running? where, since when, runs attached now; exit 0 running, 1 not
  migrator pg stop       # stop it and delete its folder (refused while runs are attached, unless --force)
"""


def add_pg_parser(sub) -> None:
    p = sub.add_parser(
        "pg",
        help="start, stop or inspect a local PostgreSQL that later commands reuse",
        description=__doc__,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("action", choices=["start", "stop", "status"])
    p.add_argument("--force", action="store_true", help="stop: even while runs are attached")


def _attached_runs(admin_dsn: str) -> list[str]:
    """Execution roles of runs whose process is alive (each run has one while it works)."""
    import json

    import psycopg

    from harness.engines.pg_sandbox import ROLE_PREFIX, _alive

    with psycopg.connect(admin_dsn, autocommit=True, connect_timeout=5) as conn:
        rows = conn.execute(
            "SELECT rolname, shobj_description(oid, 'pg_authid') FROM pg_roles WHERE rolname LIKE %s",
            (ROLE_PREFIX.replace("_", r"\_") + "%",),
        ).fetchall()
    runs = []
    for name, comment in rows:
        try:
            owner = json.loads((comment or "").removeprefix("migrator execution role "))
            if _alive(int(owner["pid"]), float(owner["started"])):
                runs.append(f"{name} (pid {owner['pid']})")
        except (ValueError, KeyError, TypeError):
            continue
    return runs


def run_pg(args) -> int:
    from harness.engines.postgres import shared_server, start_shared_server, stop_shared_server

    if args.action == "start":
        t0 = time.perf_counter()
        running, started = start_shared_server()
        what = f"started in {time.perf_counter() - t0:.1f} s" if started else "already running"
        print(f"shared PostgreSQL {what}: pid {running.pid}, folder {running.folder}")
        return 0
    info = shared_server()
    if args.action == "status":
        if info is None:
            print("shared PostgreSQL: not running (`migrator pg start`); commands start a server of their own")
            return 1
        runs = _attached_runs(info.admin_dsn)
        since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(info.started))
        print(f"shared PostgreSQL: running, pid {info.pid} since {since}, folder {info.folder}")
        print(f"  runs attached now: {len(runs)}" + (": " + ", ".join(runs) if runs else ""))
        return 0
    if info is not None and not args.force and (runs := _attached_runs(info.admin_dsn)):
        print(f"migrator pg: refused: {len(runs)} run(s) attached: {', '.join(runs)} (--force stops it anyway)")
        return 1
    stopped = stop_shared_server()
    print("shared PostgreSQL stopped" if stopped else "shared PostgreSQL was not running")
    return 0
