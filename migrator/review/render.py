"""Pages from templates: jinja2 with autoescaping on for every template and every value.

Why a template engine: unit names, sources, outputs, verdicts and step values are untrusted text,
and the pages hold a lot of them. With autoescaping, a value is HTML-escaped unless a template
says otherwise (none does), so escaping cannot be forgotten in one place among many; StrictUndefined
turns a misspelt field into an error instead of an empty cell.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape

ASSETS = ("review.css", "review.js")  # copied beside the pages (assets/), no CDN


def filter_href(root: str, **params: str) -> str:
    """Link to the index's unit table with filters set (read back by review.js from the hash)."""
    query = "&".join(f"{quote(k, safe='')}={quote(str(v), safe='')}" for k, v in params.items() if v)
    return f"{root}index.html#{query}" if query else f"{root}index.html#units"


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.1f}" if whole else "0"


def blanks(value: str) -> Markup:
    """A value with its leading and trailing blanks made visible (' ' vs '' vs NULL matter to
    Oracle); the text itself is escaped here, the marks are ours."""
    text = str(value)
    core = text.strip(" ")
    lead, trail = len(text) - len(text.lstrip(" ")), len(text) - len(text.rstrip(" "))
    if not core:
        lead, trail = len(text), 0
    mark = Markup('<span class="ws" title="blank">·</span>')
    return mark * lead + escape(core) + mark * trail


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("migrator.review", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["pct"] = _pct
    env.filters["blanks"] = blanks
    env.globals["filter_href"] = filter_href
    return env


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)


def asset(name: str) -> str:
    return resources.files("migrator.review").joinpath("static", name).read_text(encoding="utf-8")


def data_script(variable: str, payload: dict) -> str:
    """A data file the pages load with <script src> (file:// pages cannot fetch JSON). JSON is a
    JavaScript expression; `<` is escaped so that no text in it can ever close a script element."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f"window.{variable} = {text};\n"
