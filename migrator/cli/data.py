"""`migrator data load|copy`: table data into PostgreSQL at volume (migrator.data).

`load` streams INSERT exports (SQL Developer's, `exp`-style scripts, any `INSERT … VALUES`) and
SQL*Loader control files with their data files into tables that exist already (deploy the
converted schema first), with COPY; `copy` reads the tables from a live Oracle.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

EXAMPLES = """examples:
  migrator data load export/data --pg-dsn postgresql://me@host/db --out load/ --max-rejects 100
  migrator data load export/emp.ctl --pg-dsn $DSN --out load/ --workers 4      # SQL*Loader files
  migrator data load export/data --pg-dsn $DSN --out load/ --resume            # after a crash or Ctrl-C
  migrator data copy --oracle scott/tiger@db:1521/ORCL --pg-dsn $DSN --out copy/ --tables EMP,DEPT
"""


def add_data_parser(sub) -> None:
    p = sub.add_parser(
        "data",
        help="load table data (INSERT exports, SQL*Loader files, a live Oracle) with COPY",
        description=__doc__,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    dsub = p.add_subparsers(dest="data_command", required=True)
    load = dsub.add_parser("load", help="INSERT scripts and SQL*Loader control files into PostgreSQL")
    load.add_argument("inputs", type=Path, nargs="+", help="files or folders (.sql/.dml/.ins scripts, .ctl files)")
    _common(load)
    load.add_argument("--schema", help="schema of unqualified table names (default: the search_path's)")
    load.add_argument(
        "--read-workers",
        type=int,
        default=None,
        help="processes reading a large INSERT script (default: the machine's cores, at most 8, "
        "and at least --workers; 1 reads it in this process)",
    )
    load.add_argument(
        "--resume", action="store_true", help="finish an interrupted load in --out (tables not yet loaded)"
    )
    copy = dsub.add_parser("copy", help="tables from a live Oracle (python-oracledb, thin mode) into PostgreSQL")
    copy.add_argument("--oracle", required=True, help="Oracle DSN: user/password@host:port/service")
    copy.add_argument("--tables", help="comma-separated Oracle table names (default: every table of the user)")
    _common(copy)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--pg-dsn", default=os.environ.get("MIGRATOR_PG_DSN"), help="target database (default: MIGRATOR_PG_DSN)"
    )
    p.add_argument("--out", type=Path, required=True, help="folder for COPY scripts, rejects and data-report.json")
    p.add_argument(
        "--max-rejects",
        type=int,
        default=None,
        help="a table with more rejected rows is not loaded (SQL*Loader ERRORS=)",
    )
    p.add_argument("--workers", type=int, default=1, help="tables loaded at once (each on its own connection)")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar with rows/s (default: on a terminal)",
    )


def run_data(args) -> int:
    from migrator.data.run import DataLoadError, LoadRun

    if not args.pg_dsn:
        raise DataLoadError("give --pg-dsn (or set MIGRATOR_PG_DSN): the database the tables are in")
    show = sys.stderr.isatty() if args.progress is None else args.progress
    run: LoadRun
    if args.data_command == "load":
        from migrator.data.run import load

        run = load(args.inputs, args.pg_dsn, args.out, schema=args.schema, max_rejects=args.max_rejects,
                   workers=args.workers, resume=args.resume, progress=show,
                   read_workers=args.read_workers)  # fmt: skip
    else:
        from migrator.data.oracle_source import copy_from_oracle

        tables = [t.strip() for t in args.tables.split(",")] if args.tables else None
        run = copy_from_oracle(args.oracle, args.pg_dsn, args.out, tables=tables, max_rejects=args.max_rejects,
                               workers=args.workers, progress=show)  # fmt: skip
    for t in run.tables:
        check = (
            "checksums agree" + (" (with the source's, computed there)" if t.origin_checksum else "")
            if t.checksums_agree and t.source_checksum
            else ("checksum not comparable" if not t.source_checksum else "CHECKSUMS DIFFER")
        )
        state = f"NOT LOADED: {t.error}" if t.error else check
        bad = f", {t.rows_rejected} rejected -> {t.reject_file}" if t.rows_rejected else ""
        print(f"  {t.table}: {t.rows_read} read, {t.rows_loaded} loaded{bad}; {state}")
    for c in run.constraints:
        print(
            f"  {c.table}.{c.constraint}: "
            + ("validated" if c.validated else f"NOT VALID, orphans {c.orphan_keys[:5]}")
        )
    for issue in run.issues[:20]:
        print(f"  {issue}")
    rows = sum(t.rows_loaded for t in run.tables)
    print(
        f"{rows} rows loaded in {run.seconds:.1f} s ({rows / max(run.seconds, 1e-9):,.0f} rows/s); report: {args.out / 'data-report.json'}"
    )
    return 0 if run.ok else 1
