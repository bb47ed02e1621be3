"""`migrator review OUT [--open]`: the static review site of a run or of a fix-cycles folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXAMPLES = """examples:
  migrator review out/hr_payroll            # writes out/hr_payroll/review/index.html
  migrator review out/hr_payroll --open     # ... and opens it in the default browser
  migrator review fix-cycles                # fix-cycles/review/: every cycle, its flips, the audit chain
"""


def add_review_parser(sub) -> None:
    r = sub.add_parser(
        "review",
        help="write a static review site (summary, reasons, filterable units, side by side, steps)",
        description="Write a self-contained static site under OUT/review/ for reviewers: the category "
        "and tier chart, failures grouped by reason, a filterable unit table, and one page per unit "
        "with the Oracle source beside the PostgreSQL output, every scenario step with Oracle's and "
        "PostgreSQL's outcome, and the repair agent's attempts. Given a fix-cycles folder, writes "
        "one page per cycle (change, predicates, both arms, flips, decision, audit chain). No "
        "server and no network: open index.html from disk or attach the folder to a ticket.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument("out", type=Path, help="output directory of `migrate`/`verify`, or a fix-cycles folder")
    r.add_argument("--open", action="store_true", help="open the site's index.html in the default browser")


def run_review(args) -> int:
    from migrator.review.cycle_site import is_cycles_dir, write_cycles_site
    from migrator.review.inputs import ReviewError
    from migrator.review.run_site import write_run_site

    out: Path = args.out
    if not out.is_dir():
        print(f"migrator: error: {out} is not a directory (give a migrate OUT or a fix-cycles folder)", file=sys.stderr)
        return 2
    try:
        if (out / "report.json").is_file() or not is_cycles_dir(out):
            site = write_run_site(out)
        else:
            site = write_cycles_site(out)
    except ReviewError as exc:
        print(f"migrator: error: {exc}", file=sys.stderr)
        return 2
    print(f"review site: {site.index} ({site.pages} pages in {site.seconds} s)")
    if args.open:
        import webbrowser

        webbrowser.open(site.index.resolve().as_uri())
    return 0
