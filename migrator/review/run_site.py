"""`migrator review OUT`: the static review site of a run, under OUT/review/.

    review/index.html        summary chart, evidence legend, failure reasons, filterable unit table
    review/data.js           the unit table's rows (file:// pages cannot fetch JSON)
    review/units.html        every unit as a plain list (no JavaScript needed)
    review/units/<id>.html   one page per unit: side by side, rules, every step, agent attempts, files
    review/rules.html        the rule registry, with this run's counts
    review/assets/           the stylesheet and the table script

Pages link only to each other and to files in OUT, so OUT (or a zip of it) is the whole review:
no server, no CDN. Files are recorded in OUT/.migrator/written.txt like every file a run writes;
`--force` removes them and a later report removes the stale site.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from migrator import __name__ as _tool
from migrator.batch.output import REVIEW_DIR, record_written, remove_written_under
from migrator.batch.pipeline import VERSION
from migrator.convert.registry import RULES, matching
from migrator.review import legend
from migrator.review.index_view import GROUP_PREVIEW, build_index_view
from migrator.review.inputs import RunInputs, TextReader, load_run
from migrator.review.render import ASSETS, asset, data_script, render
from migrator.review.unit_view import build_unit_view, unit_page

NAV = (
    ("Summary", "index.html#summary"),
    ("Reasons", "index.html#reasons"),
    ("Units", "index.html#units"),
    ("Rules", "rules.html"),
    ("Legend", "index.html#legend"),
)
MARKS = {"same": "", "changed": "~", "removed": "−", "added": "+", "header": "#"}
REPORT_FILES = ("report.md", "report.json", "steps.json", "junit.xml", "deploy.sql", "run_manifest.json")


@dataclass(frozen=True)
class SiteResult:
    index: Path
    pages: int
    seconds: float


def _common(inputs: RunInputs, root: str, title: str) -> dict:
    return dict(
        root=root,
        title=title,
        brand=f"Review · {inputs.report.schema_name}",
        nav=NAV,
        version=f"{_tool} {VERSION}",
        generated_from="report.json" + (" and steps.json" if inputs.steps else ""),
    )


def _index(inputs: RunInputs, pages: dict[str, str]) -> Iterator[tuple[str, str]]:
    report = inputs.report
    view = build_index_view(report)
    v = report.verification
    files = [(name, f"../{name}") for name in REPORT_FILES if (inputs.out / name).is_file()]
    yield (
        "index.html",
        render(
            "run_index.html.j2",
            view=view,
            pages=pages,
            files=files + [("all units (plain list)", "units.html")],
            preview=GROUP_PREVIEW,
            legend=legend,
            provenance=legend.provenance_sentence(
                v.provenance if v else None,
                bool(v and v.references_checked),
                verified=v is not None,
                references_method=v.references_method if v else None,
            ),
            **_common(inputs, "", f"Review of {report.schema_name}"),
        ),
    )
    yield "data.js", data_script("REVIEW_DATA", view.table)
    yield "units.html", render("units_list.html.j2", report=report, pages=pages, **_common(inputs, "", "All units"))


def _rules(inputs: RunInputs) -> tuple[str, str]:
    counts = Counter(r for u in inputs.report.units for r in u.rules_applied)
    disabled = {rid for pattern in inputs.report.disabled_rules for rid in matching(pattern)}
    text = render(
        "rules.html.j2",
        rules=RULES,
        counts=counts,
        disabled=inputs.report.disabled_rules,
        disabled_ids=disabled,
        **_common(inputs, "", "Conversion rules"),
    )
    return "rules.html", text


def _unit_pages(inputs: RunInputs) -> Iterator[tuple[str, str]]:
    texts = TextReader(inputs)
    known = {u.id for u in inputs.report.units}
    for unit in inputs.report.units:
        view = build_unit_view(inputs, texts, unit, known)
        yield (
            view.page,
            render(
                "unit.html.j2",
                v=view,
                marks=MARKS,
                has_steps=inputs.steps is not None,
                has_tests=inputs.report.tests is not None,
                agent_run=inputs.report.agent is not None,
                **_common(inputs, "../", unit.id),
            ),
        )


def site_files(inputs: RunInputs) -> Iterator[tuple[str, str]]:
    """Every file of the site as (path relative to the review folder, text)."""
    pages = {u.id: unit_page(u.id) for u in inputs.report.units}
    yield from _index(inputs, pages)
    yield _rules(inputs)
    for name in ASSETS:
        yield f"assets/{name}", asset(name)
    yield from _unit_pages(inputs)


def planned_files(inputs: RunInputs) -> list[str]:
    fixed = ["index.html", "data.js", "units.html", "rules.html", *(f"assets/{a}" for a in ASSETS)]
    return fixed + [unit_page(u.id) for u in inputs.report.units]


def write_run_site(out: Path) -> SiteResult:
    """Write OUT/review/ from OUT's report files. Raises ReviewError when OUT has no usable report."""
    t0 = time.perf_counter()
    inputs = load_run(out)
    rels = [f"{REVIEW_DIR}/{rel}" for rel in planned_files(inputs)]
    remove_written_under(out, REVIEW_DIR, keep=frozenset(rels))  # pages of units this report lacks
    record_written(out, rels)  # before writing: --force must be able to remove all of them
    pages, folders = 0, set()
    for rel, text in site_files(inputs):
        target = out / REVIEW_DIR / rel
        if target.parent not in folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            folders.add(target.parent)
        target.write_text(text, encoding="utf-8")
        pages += rel.endswith(".html")
    return SiteResult(out / REVIEW_DIR / "index.html", pages, round(time.perf_counter() - t0, 2))
