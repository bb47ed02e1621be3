"""The assessment as Markdown (people, tickets), JSON (tools) and a page in the review site's style."""

from __future__ import annotations

from pathlib import Path

from migrator.assess.model import Assessment
from migrator.review.index_view import Bar, segments
from migrator.review.render import asset, render

FILES = ("assessment.md", "assessment.json", "assessment.html", "assets/review.css")


def _cell(text: str | None, limit: int = 140) -> str:
    """Text for a Markdown table cell: one line, no column breaks, bounded."""
    text = (text or "").replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _hours(minutes: float) -> str:
    return f"{minutes / 60:.1f} h" if minutes >= 60 else f"{minutes:.0f} min"


def counts_table(a: Assessment) -> list[str]:
    lines = ["| kind | units | lines | effort |", "|---|---:|---:|---:|"]
    lines += [f"| {k.kind} | {k.units} | {k.lines} | {_hours(k.minutes)} |" for k in a.by_kind]
    one_time = sum(i.minutes for i in a.effort.one_time)
    lines += [f"| once per schema | | | {_hours(one_time)} |"] if one_time else []
    lines += [f"| **total** | **{a.units_total}** | **{a.lines_total}** | **{_hours(a.effort.total_minutes)}** |"]
    return lines


def _not_converting(a: Assessment) -> list[str]:
    rows = [
        f"| `{u.id}` | {_cell(x.construct_name)} | {u.source.rsplit(':', 1)[0]}:{x.file_line or '?'} | {_cell(x.message)} |"
        for u in a.units
        for x in u.will_not_convert
    ]
    rows += [
        f"| `{u.id}` | conversion fails | {u.source} | {_cell(u.conversion_error)} |"
        for u in a.units
        if u.conversion_error
    ]
    if not rows:
        return ["Everything converts with the rules as they are (nothing is left for a person to rewrite)."]
    return ["| unit | construct | where | message |", "|---|---|---|---|", *rows]


def _effort_rows(a: Assessment) -> list[str]:
    lines = [
        "| unit | kind | lines | rules | will not convert | scenario | effort | complexity |",
        "|---|---|---:|---:|---:|---|---:|---|",
    ]
    for u in sorted(a.units, key=lambda u: -u.minutes):
        missing = len(u.will_not_convert) + (1 if u.conversion_error else 0)
        lines.append(
            f"| `{u.id}` | {u.kind} | {u.lines} | {len(u.rules)} | {missing} | {'yes' if u.scenario else 'no'} | "
            f"{u.minutes:g} min | {u.complexity} |"
        )
    return lines


def to_markdown(a: Assessment) -> str:
    e = a.effort
    out = [
        f"# Assessment: `{a.schema_name}`",
        "",
        f"Source `{a.source_dir}` · {a.units_total} units · {a.lines_total} lines · assessed in {a.seconds} s · "
        f"disabled rules: {', '.join(a.disabled_rules) or 'none'} · scenarios: {a.scenarios or 'none'}",
        "",
        f"**Estimated effort: {e.total_hours} h** ({e.total_minutes:g} minutes of a person's work) — "
        + ", ".join(f"{n} {c}" for c, n in e.by_complexity.items())
        + " units.",
        "",
        "## Objects and effort",
        "",
        *counts_table(a),
        "",
        "## What will not convert",
        "",
        *_not_converting(a),
        "",
        "## Oracle-supplied packages",
        "",
    ]
    if a.packages:
        out += ["| package | members | units | status |", "|---|---|---:|---|"]
        out += [f"| {p.package} | {', '.join(p.members) or '—'} | {p.units} | {p.status} |" for p in a.packages]
    else:
        out += ["None used."]
    out += ["", "## Once per schema", ""]
    out += [f"- {i.what}: {i.minutes:g} min" for i in e.one_time] or ["Nothing."]
    out += ["", "## Constructs found", "", "| construct | units | what |", "|---|---:|---|"]
    out += [f"| `{c.name}` | {c.units} | {_cell(c.description)} |" for c in a.constructs]
    out += ["", "## Effort per unit", "", *_effort_rows(a), "", *model_lines(a)]
    return "\n".join(out) + "\n"


def model_lines(a: Assessment) -> list[str]:
    m = a.model
    out = ["## The effort model", "", f"All numbers are {m.unit}.", "", "| item | minutes | why |", "|---|---:|---|"]
    out += [f"| {r.item} | {'' if r.minutes is None else f'{r.minutes:g}'} | {_cell(r.why, 400)} |" for r in m.rows]
    out += [
        "",
        f"Rule risk = (units judged wrong or rejected + 1) / (units judged + 2), measured on {m.calibration}.",
        "",
    ]
    out += ["| rule | fixture units judged | of them wrong/rejected | risk |", "|---|---:|---:|---:|"]
    out += [f"| `{r.rule}` | {r.judged} | {r.bad} | {r.risk:.3f} |" for r in m.rule_risks]
    return out


def to_html(a: Assessment) -> str:
    e = a.effort
    total = sum(e.by_complexity.values())
    bar = Bar("complexity", "per unit", total, segments(e.by_complexity, ("simple", "medium", "complex"), ""))
    nav: tuple[tuple[str, str], ...] = (
        ("Summary", "assessment.html#summary"),
        ("Will not convert", "assessment.html#not-converting"),
    )
    nav += (
        ("Packages", "assessment.html#packages"),
        ("Effort", "assessment.html#effort"),
        ("Model", "assessment.html#model"),
    )
    return render(
        "assessment.html.j2",
        a=a,
        bar=bar,
        hours=_hours,
        root="",
        home="assessment.html",
        title=f"Assessment of {a.schema_name}",
        brand=f"Assessment · {a.schema_name}",
        nav=nav,
        version=f"{a.tool} {a.version}",
        generated_from=a.source_dir,
    )


def write_assessment(a: Assessment, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    texts = {
        "assessment.md": to_markdown(a),
        "assessment.json": a.model_dump_json(indent=2),
        "assessment.html": to_html(a),
        "assets/review.css": asset("review.css"),
    }
    written = []
    for rel, text in texts.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
